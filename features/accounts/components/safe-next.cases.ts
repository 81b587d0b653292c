/** Return paths for the tests of safeNext and of the routes that use it (pages, social sign-in). */

/** Tricky return paths, and what a browser would do with each as a Location. */
export const UNSAFE_NEXT: [string, string][] = [
  ["a dot segment before a double slash", "/.//evil.example"],
  ["a parent segment before a double slash", "/..//evil.example"],
  ["parent segments before a double slash", "/a/../..//evil.example/x"],
  ["an encoded dot segment", "/%2e//evil.example"],
  ["an encoded parent segment", "/%2e%2e//evil.example"],
  ["a protocol-relative address", "//evil.example"],
  ["three slashes", "///evil.example"],
  ["a backslash", "/\\evil.example"],
  ["two backslashes", "\\\\evil.example"],
  ["a slash and a backslash after a dot segment", "/./\\evil.example"],
  ["a tab browsers drop", "/\t/evil.example"],
  ["a newline browsers drop", "/\n/evil.example"],
  ["a line break with a header", "/ok\r\nSet-Cookie: x"],
  ["a scheme", "https://evil.example"],
  ["a scheme without slashes", "http:evil.example"],
  ["javascript:", "javascript:alert(1)"],
  ["javascript: after a slash-less space", " javascript:alert(1)"],
  ["an IDN host", "//évil.example"],
  ["a full-width slash host", "／／evil.example"],
  ["a relative path", "user/profil"],
  ["nothing", ""],
];

/** Encoded slashes stay encoded: the browser asks this site for that path, never another host. */
export const SAFE_NEXT: [string, string][] = [
  ["/user/profil?tab=1#top", "/user/profil?tab=1#top"],
  ["/en/race/x", "/en/race/x"],
  ["/a/./b/../c", "/a/c"],
  ["/%2F%2Fevil.example", "/%2F%2Fevil.example"],
  ["/%5Cevil.example", "/%5Cevil.example"],
  ["/%2fevil.example", "/%2fevil.example"],
  ["/course/été", "/course/%C3%A9t%C3%A9"],
];
