import { type ComponentType, lazy, type ReactNode, Suspense, useEffect, useId, useRef, useState } from "react";

/**
 * A block of a page whose code is not part of the page's first load (decision 030): the server
 * renders it in full, as any other part of the page (crawlers and the first paint see it); the
 * browser keeps that HTML as it is — React does not hydrate it — and fetches the block's code
 * when the block nears the viewport, when the visitor points at or focuses it, or once the page
 * has loaded and the browser is idle, whichever comes first; the live block then takes the HTML's
 * place. A button clicked before that is clicked again once the block is live (links work as
 * links from the start). On a page the browser renders itself (a client-side navigation), the
 * block loads at once, `fallback` holding its place meanwhile.
 *
 * The import must be dynamic (`() => import("./Block.tsx").then((m) => m.Block)`) and the module
 * imported nowhere else statically on the page, or the bundler keeps it in the first load.
 */
export function island<P extends object>(
  load: () => Promise<ComponentType<P>>,
  options: { fallback?: ReactNode; className?: string } = {},
): ComponentType<P> {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<ComponentType<P>> | null = null;
  const start = () => {
    loading ??= load().then((component) => {
      loaded = component;
      return component;
    });
    return loading;
  };
  // The server renders the block itself, synchronously: its module is loaded when the page's module
  // is (at start), so the block is in the HTML where it stands. A Suspense boundary resolved later
  // in the stream would be moved into place by an inline script: invisible without JavaScript.
  if (typeof document === "undefined") void start();
  // Only for a request that comes before the module is in (not expected once the server listens).
  const OnServer = lazy(() => start().then((component) => ({ default: component })));

  function Island(props: P) {
    const id = useId();
    const ref = useRef<HTMLDivElement>(null);
    // Server HTML to keep: this block is being hydrated (its server-rendered wrapper is in the
    // document under the same id); a block rendered by the browser has an id of its own.
    const [fromServer] = useState(() => typeof document !== "undefined" && document.getElementById(id) !== null);
    const [Live, setLive] = useState<ComponentType<P> | null>(() => (fromServer ? null : loaded));
    const replay = useRef<Replay | null>(null);

    useEffect(() => {
      if (Live) return;
      let live = true;
      const go = () => {
        start().then(
          (component) => {
            if (live) setLive(() => component);
          },
          () => {
            // A chunk that failed (offline, a new deployment): the server's HTML stays as it is.
            loading = null;
          },
        );
      };
      if (!fromServer) {
        go();
        return () => {
          live = false;
        };
      }
      const element = ref.current;
      if (!element) return;
      const observer =
        typeof IntersectionObserver === "function"
          ? new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && go(), {
              rootMargin: "600px 0px",
            })
          : null;
      observer?.observe(element);
      const onClick = (event: MouseEvent) => {
        const target = event.target instanceof Element ? event.target : null;
        const button = target?.closest("button, input, select, textarea, summary, label");
        if (!button || !element.contains(button)) return;
        event.preventDefault();
        replay.current = { path: pathOf(element, button), tag: button.tagName, text: button.textContent };
        go();
      };
      element.addEventListener("pointerover", go, { once: true, passive: true });
      element.addEventListener("focusin", go, { once: true });
      element.addEventListener("click", onClick, true);
      let idle: number | undefined;
      const whenIdle = () => {
        idle =
          typeof window.requestIdleCallback === "function"
            ? window.requestIdleCallback(go, { timeout: 4000 })
            : window.setTimeout(go, 1500);
      };
      if (document.readyState === "complete") whenIdle();
      else window.addEventListener("load", whenIdle, { once: true });
      return () => {
        live = false;
        observer?.disconnect();
        element.removeEventListener("pointerover", go);
        element.removeEventListener("focusin", go);
        element.removeEventListener("click", onClick, true);
        window.removeEventListener("load", whenIdle);
        if (idle !== undefined) {
          if (typeof window.cancelIdleCallback === "function") window.cancelIdleCallback(idle);
          window.clearTimeout(idle);
        }
      };
    }, [Live, fromServer]);

    // The click that came before the block's code, on the same control of the live block.
    useEffect(() => {
      const click = replay.current;
      if (!Live || !click || !ref.current) return;
      replay.current = null;
      const target = elementAt(ref.current, click.path);
      // Only the same control: the live block may differ (a member's buttons, loaded data).
      if (target instanceof HTMLElement && target.tagName === click.tag && target.textContent === click.text) {
        target.focus();
        target.click();
      }
    }, [Live]);

    const className = options.className;
    if (typeof document === "undefined") {
      const Loaded = loaded;
      if (Loaded)
        return (
          <div id={id} className={className}>
            <Loaded {...props} />
          </div>
        );
      return (
        <div id={id} className={className}>
          <Suspense fallback={options.fallback ?? null}>
            <OnServer {...props} />
          </Suspense>
        </div>
      );
    }
    // A new element, not the same one with children: React would leave the server's HTML in it.
    if (Live)
      return (
        <div key="live" id={id} ref={ref} className={className}>
          <Live {...props} />
        </div>
      );
    if (fromServer)
      return (
        <div
          key="server"
          id={id}
          ref={ref}
          className={className}
          // Keeps the server's HTML untouched until the block's code is here (React leaves the
          // children of an element with inner HTML alone while hydrating).
          // biome-ignore lint/security/noDangerouslySetInnerHtml: empty on purpose, see above
          dangerouslySetInnerHTML={{ __html: "" }}
          suppressHydrationWarning
        />
      );
    return (
      <div id={id} ref={ref} className={className}>
        {options.fallback ?? null}
      </div>
    );
  }
  return Island;
}

type Replay = { path: number[]; tag: string; text: string | null };

/** The child indexes from `root` down to `node`. */
function pathOf(root: Element, node: Element): number[] {
  const path: number[] = [];
  let current: Element | null = node;
  while (current && current !== root) {
    const parent: Element | null = current.parentElement;
    if (!parent) break;
    path.unshift(Array.prototype.indexOf.call(parent.children, current));
    current = parent;
  }
  return path;
}

function elementAt(root: Element, path: number[]): Element | null {
  let current: Element | null = root;
  for (const index of path) current = current?.children[index] ?? null;
  return current;
}
