/**
 * The few DOM matchers the UI kit's component tests use (the project has no jest-dom).
 * Import it for its side effect: `import "./test-matchers.ts";`
 */
import { expect } from "vitest";

const isElement = (value: unknown): value is HTMLElement => value instanceof Element;
const text = (element: Element) => (element.textContent ?? "").replace(/\s+/g, " ").trim();
const name = (value: unknown) =>
  isElement(value) ? `<${value.tagName.toLowerCase()}${value.id ? `#${value.id}` : ""}>` : String(value);

expect.extend({
  toBeInTheDocument(received: unknown) {
    const pass = isElement(received) && received.ownerDocument.contains(received);
    return { pass, message: () => `expected ${name(received)} ${this.isNot ? "not " : ""}to be in the document` };
  },
  toHaveAttribute(received: unknown, attribute: string, value?: string) {
    const actual = isElement(received) ? received.getAttribute(attribute) : null;
    const pass = isElement(received) && (value === undefined ? received.hasAttribute(attribute) : actual === value);
    return {
      pass,
      message: () =>
        `expected ${name(received)} ${this.isNot ? "not " : ""}to have ${attribute}${value === undefined ? "" : `="${value}"`}, got ${actual}`,
    };
  },
  toHaveTextContent(received: unknown, expected: string | RegExp) {
    const actual = isElement(received) ? text(received) : "";
    const pass =
      isElement(received) && (typeof expected === "string" ? actual.includes(expected) : expected.test(actual));
    return {
      pass,
      message: () => `expected ${name(received)} ${this.isNot ? "not " : ""}to contain "${expected}", got "${actual}"`,
    };
  },
  toHaveFocus(received: unknown) {
    const pass = isElement(received) && received.ownerDocument.activeElement === received;
    return {
      pass,
      message: () =>
        `expected ${name(received)} ${this.isNot ? "not " : ""}to have the focus (focus is on ${name(document.activeElement)})`,
    };
  },
  toHaveClass(received: unknown, ...classes: string[]) {
    const pass = isElement(received) && classes.every((c) => received.classList.contains(c));
    return {
      pass,
      message: () =>
        `expected ${name(received)} ${this.isNot ? "not " : ""}to have class ${classes.join(" ")}, got "${isElement(received) ? received.className : ""}"`,
    };
  },
  toHaveValue(received: unknown, value: string) {
    const actual = received instanceof HTMLInputElement ? received.value : undefined;
    return {
      pass: actual === value,
      message: () => `expected ${name(received)} ${this.isNot ? "not " : ""}to have value "${value}", got "${actual}"`,
    };
  },
  toBeDisabled(received: unknown) {
    const pass = isElement(received) && (received as HTMLButtonElement).disabled === true;
    return { pass, message: () => `expected ${name(received)} ${this.isNot ? "not " : ""}to be disabled` };
  },
});

declare module "vitest" {
  // biome-ignore lint/suspicious/noExplicitAny: must repeat vitest's own declaration to merge with it
  interface Matchers<T = any> {
    toBeInTheDocument(): T;
    toHaveAttribute(attribute: string, value?: string): T;
    toHaveTextContent(expected: string | RegExp): T;
    toHaveFocus(): T;
    toHaveClass(...classes: string[]): T;
    toHaveValue(value: string): T;
    toBeDisabled(): T;
  }
}
