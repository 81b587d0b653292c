import { CircleAlert, MapPinOff } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router";
import { localeFromPath } from "../../shared/i18n/index.ts";
import { pagePath } from "../../shared/i18n/pages.ts";

export type ErrorKind = "page" | "item" | "generic";

const KEYS: Record<ErrorKind, { title: string; text: string }> = {
  page: { title: "errors.notFoundTitle", text: "errors.notFound" },
  item: { title: "errors.itemNotFoundTitle", text: "errors.itemNotFound" },
  generic: { title: "errors.genericTitle", text: "errors.generic" },
};

export function ErrorPage({ kind }: { kind: ErrorKind }) {
  const { t } = useTranslation();
  const locale = localeFromPath(useLocation().pathname);
  const Icon = kind === "generic" ? CircleAlert : MapPinOff;
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-20 text-center" data-error={kind}>
      <Icon className="mb-4 h-12 w-12 text-brand-600" aria-hidden="true" />
      <h1 className="font-bold text-2xl sm:text-3xl">{t(KEYS[kind].title)}</h1>
      <p className="mt-3 text-ink-700">{t(KEYS[kind].text)}</p>
      <Link
        to={pagePath("home", locale)}
        className="mt-8 rounded-lg bg-brand-600 px-5 py-3 font-semibold text-white hover:bg-brand-700"
      >
        {t("errors.backHome")}
      </Link>
    </section>
  );
}
