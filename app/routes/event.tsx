import { data } from "react-router";
import { ErrorPage } from "../components/ErrorPage.tsx";

// Placeholder while the page is being built (issue 3): an honest item-not-found.
export function loader() {
  throw data({ kind: "item" }, { status: 404 });
}

export default function Placeholder() {
  return <ErrorPage kind="item" />;
}
