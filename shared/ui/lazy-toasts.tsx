import { lazy, Suspense, useEffect, useState } from "react";
import type { ToastType } from "../constants.ts";

type ToastsModule = typeof import("./Toasts.tsx");

// react-toastify is loaded on the first toast: most visits never show one.
let loading: Promise<ToastsModule> | null = null;
const load = () => {
  loading ??= import("./Toasts.tsx");
  return loading;
};

const LazyHost = lazy(() => load().then((module) => ({ default: module.ToastHost })));

let wanted = false;
const listeners = new Set<() => void>();
let markReady: () => void = () => {};
const ready = new Promise<void>((resolve) => {
  markReady = resolve;
});

/** Shows a toast of the UI kit, mounting its container first when needed. */
export async function showToast(type: ToastType, message: string): Promise<void> {
  const module = await load();
  if (!wanted) {
    wanted = true;
    for (const listener of listeners) listener();
  }
  await ready;
  module.notify(type, message);
}

function Ready() {
  useEffect(() => {
    // After the container's own effects have registered it.
    setTimeout(markReady, 0);
  }, []);
  return null;
}

/** Where the toasts appear; renders nothing until the first toast is asked for. */
export function LazyToastHost() {
  const [show, setShow] = useState(wanted);
  useEffect(() => {
    const listener = () => setShow(true);
    listeners.add(listener);
    if (wanted) setShow(true);
    return () => {
      listeners.delete(listener);
    };
  }, []);
  if (!show) return null;
  return (
    <Suspense fallback={null}>
      <LazyHost />
      <Ready />
    </Suspense>
  );
}
