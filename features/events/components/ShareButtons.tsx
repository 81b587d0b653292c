import { Check, Link2, Mail } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { FacebookMark, WhatsappMark, XMark } from "./BrandIcons.tsx";

const BUTTON =
  "inline-flex h-11 w-11 items-center justify-center rounded-full border border-slate-300 bg-white text-ink-900 hover:bg-slate-50";

/**
 * Share links as plain addresses (no third-party scripts): copy to the clipboard, X, Facebook,
 * WhatsApp and e-mail.
 */
export function ShareButtons({ url, text }: { url: string; text: string }) {
  const { t } = useTranslation("event");
  const [status, setStatus] = useState<"idle" | "copied" | "failed">("idle");
  const u = encodeURIComponent(url);
  const links = [
    { key: "x", href: `https://x.com/intent/post?url=${u}&text=${encodeURIComponent(text)}`, Icon: XMark },
    { key: "facebook", href: `https://www.facebook.com/sharer/sharer.php?u=${u}`, Icon: FacebookMark },
    { key: "whatsapp", href: `https://wa.me/?text=${encodeURIComponent(`${text} ${url}`)}`, Icon: WhatsappMark },
  ] as const;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setStatus("copied");
    } catch {
      setStatus("failed");
    }
    setTimeout(() => setStatus("idle"), 4000);
  };
  return (
    <div>
      <button
        type="button"
        onClick={copy}
        className="inline-flex h-11 w-full items-center justify-center gap-2 rounded-xl border border-slate-300 bg-white px-4 font-semibold text-ink-900 text-sm hover:bg-slate-50"
        data-testid="copy-link"
      >
        {status === "copied" ? (
          <Check className="h-4 w-4 text-emerald-700" aria-hidden="true" />
        ) : (
          <Link2 className="h-4 w-4" aria-hidden="true" />
        )}
        {t("share.copy")}
      </button>
      <ul className="mt-3 flex flex-wrap items-center gap-2">
        {links.map(({ key, href, Icon }) => (
          <li key={key}>
            <a
              href={href}
              target="_blank"
              rel="noopener noreferrer"
              className={BUTTON}
              aria-label={t(`share.${key}`)}
              title={t(`share.${key}`)}
            >
              <Icon className="h-5 w-5" />
            </a>
          </li>
        ))}
        <li>
          <a
            href={`mailto:?subject=${encodeURIComponent(text)}&body=${encodeURIComponent(`${text}\n${url}`)}`}
            className={BUTTON}
            aria-label={t("share.email")}
            title={t("share.email")}
          >
            <Mail className="h-5 w-5" aria-hidden="true" />
          </a>
        </li>
      </ul>
      <p className="mt-2 min-h-5 text-sm" role="status">
        {status === "copied" && <span className="font-medium text-emerald-800">{t("share.copied")}</span>}
        {status === "failed" && <span className="text-red-800">{t("share.copyFailed")}</span>}
      </p>
    </div>
  );
}
