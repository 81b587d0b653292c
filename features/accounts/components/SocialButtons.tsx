import { useTranslation } from "react-i18next";
import type { Locale } from "../../../shared/constants.ts";

const LABELS = { google: "Google", facebook: "Facebook", strava: "Strava" } as const;
const STYLES = {
  google: "border-slate-300 bg-white text-ink-900 hover:bg-slate-50",
  facebook: "border-[#1877f2] bg-[#1877f2] text-white hover:bg-[#166fe0]",
  strava: "border-[#c73e00] bg-[#c73e00] text-white hover:bg-[#b33800]",
} as const;

/** Links to /connect/<provider>: a plain navigation, the server does the OAuth round trip. */
export function SocialButtons({
  providers,
  locale,
  next,
}: {
  providers: readonly (keyof typeof LABELS)[];
  locale: Locale;
  next?: string | null;
}) {
  const { t } = useTranslation("account");
  if (providers.length === 0) return null;
  return (
    <div className="space-y-3">
      <ul className="grid gap-2">
        {providers.map((provider) => {
          const query = new URLSearchParams({ lang: locale, ...(next ? { next } : {}) });
          return (
            <li key={provider}>
              <a
                href={`/connect/${provider}?${query}`}
                className={`flex w-full items-center justify-center gap-2 rounded-lg border px-4 py-2.5 font-semibold ${STYLES[provider]}`}
                data-testid={`connect-${provider}`}
              >
                {t("social.continueWith", { provider: LABELS[provider] })}
              </a>
            </li>
          );
        })}
      </ul>
      <p className="flex items-center gap-3 text-ink-500 text-sm before:h-px before:flex-1 before:bg-slate-200 after:h-px after:flex-1 after:bg-slate-200">
        {t("social.or")}
      </p>
    </div>
  );
}
