import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import type { ClientInstrumentation } from "react-router";
import { HydratedRouter } from "react-router/dom";
import { otherLocaleTarget } from "../shared/i18n/index.ts";
import { readPageBundle } from "../shared/i18n/page-bundle.ts";

/**
 * The browser holds only the translations of the language the document was served in
 * (shared/i18n/page-bundle.ts). A client-side navigation into the other language therefore loads
 * that page as a new document, as the header's language switch does.
 */
const otherLanguageAsDocument: ClientInstrumentation = {
  router({ instrument }) {
    const pageLocale = readPageBundle().locale;
    instrument({
      async navigate(navigate, { to, currentUrl, formMethod }) {
        if (typeof to === "string" && (!formMethod || formMethod.toUpperCase() === "GET")) {
          const target = otherLocaleTarget(to, new URL(currentUrl, window.location.href), pageLocale);
          if (target) {
            window.location.assign(target.href);
            return new Promise<void>(() => {}); // this document is being replaced
          }
        }
        await navigate();
      },
    });
  },
};

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <HydratedRouter instrumentations={[otherLanguageAsDocument]} />
    </StrictMode>,
  );
});
