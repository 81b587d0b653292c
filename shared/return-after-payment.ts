/**
 * Where a member was when they went to buy credits (the poster they could not export), kept in the
 * tab's sessionStorage across the round trip through the payment page: the orders tab offers to go
 * back there once the order is paid. Only a path of this site is kept or given back.
 */
const KEY = "dossard.returnAfterPayment";

function isLocalPath(value: string | null): value is string {
  return !!value && value.startsWith("/") && !value.startsWith("//") && !value.includes("\\");
}

export function rememberReturnAfterPayment(path: string): void {
  if (!isLocalPath(path)) return;
  try {
    sessionStorage.setItem(KEY, path);
  } catch {
    // Storage refused (private mode, quota): the member finds their poster in the posters tab.
  }
}

/** The remembered path, if any (read without forgetting it). */
export function returnAfterPayment(): string | null {
  try {
    const value = sessionStorage.getItem(KEY);
    return isLocalPath(value) ? value : null;
  } catch {
    return null;
  }
}

export function forgetReturnAfterPayment(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // Nothing kept.
  }
}
