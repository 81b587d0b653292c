import { cleanup } from "@testing-library/react";
import { afterEach } from "vitest";
import "@testing-library/jest-dom/vitest";
import "../shared/i18n/test-init.ts";

afterEach(() => cleanup());
