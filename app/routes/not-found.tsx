import { data } from "react-router";
import { ErrorPage } from "../components/ErrorPage.tsx";
import { routeMeta } from "../meta.ts";
import type { Route } from "./+types/not-found";

export function loader() {
  return data({ kind: "page" as const }, { status: 404 });
}

export const meta: Route.MetaFunction = (args) =>
  routeMeta(args, {
    title: "common:errors.notFoundTitle",
    description: "common:errors.notFound",
    noIndex: true,
    noAlternates: true,
  });

export default function NotFound() {
  return <ErrorPage kind="page" />;
}
