/** Component tests render with a French i18next instance registered for react-i18next. */
import { initReactI18next } from "react-i18next";
import { createI18n } from "./index.ts";

export const testI18n = createI18n("fr");
testI18n.use(initReactI18next);
initReactI18next.init(testI18n);
