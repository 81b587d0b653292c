import { createContext, type ReactNode, useContext, useEffect, useState } from "react";
import type { SessionUser } from "../identity.contract.ts";

/**
 * Who is looking at the page. Pages that are the same for everyone (home, search, landing and event
 * pages, decision 024) are served to members as the visitors' page — rendered once, kept in the page
 * cache — with `memberShell` set; the browser then asks `/api/me` who the member is and the parts
 * that depend on it (header, organiser tools, favourites) fill in. Other pages are rendered for the
 * member and carry `user` directly.
 */
export type Viewer =
  | { status: "anonymous"; user: null }
  /** A member's shared page before `/api/me` answered: the header shows a neutral account link. */
  | { status: "loading"; user: null }
  | { status: "member"; user: SessionUser };

const ViewerContext = createContext<Viewer>({ status: "anonymous", user: null });

/** The last member seen in this browser: fills the header at once, before `/api/me` answers. */
const REMEMBERED = "dossard.viewer";

/** The member as `/api/me` answers them (accounts' `Me`) narrowed to what the shell shows. */
function sessionUserOf(me: SessionUser): SessionUser {
  return {
    id: me.id,
    displayName: me.displayName,
    slug: me.slug,
    role: me.role,
    emailStatus: me.emailStatus,
    photoUrl: me.photoUrl,
    firstName: me.firstName,
    locale: me.locale,
  };
}

function remembered(): SessionUser | null {
  try {
    const raw = window.localStorage.getItem(REMEMBERED);
    const value = raw ? (JSON.parse(raw) as SessionUser) : null;
    return value && typeof value.id === "number" && typeof value.displayName === "string" ? value : null;
  } catch {
    return null;
  }
}

function remember(user: SessionUser | null) {
  try {
    if (user) window.localStorage.setItem(REMEMBERED, JSON.stringify(user));
    else window.localStorage.removeItem(REMEMBERED);
  } catch {
    // Private mode or storage full: the header waits for /api/me instead.
  }
}

/** Asks the server who is signed in: null when the session cookie no longer names a session. */
export async function fetchViewer(fetcher: typeof fetch = fetch): Promise<SessionUser | null | "unknown"> {
  try {
    const response = await fetcher("/api/me", { credentials: "same-origin", headers: { accept: "application/json" } });
    if (response.status === 401) return null;
    if (!response.ok) return "unknown";
    const body = (await response.json()) as { user: SessionUser };
    return sessionUserOf(body.user);
  } catch {
    return "unknown";
  }
}

export function ViewerProvider({
  user,
  memberShell,
  children,
}: {
  user: SessionUser | null;
  memberShell: boolean;
  children: ReactNode;
}) {
  const [fetched, setFetched] = useState<SessionUser | null | undefined>(undefined);
  useEffect(() => {
    if (user) {
      remember(user);
      return;
    }
    if (!memberShell) {
      remember(null);
      return;
    }
    const known = remembered();
    if (known) setFetched(known);
    let live = true;
    fetchViewer().then((answer) => {
      if (!live || answer === "unknown") return;
      remember(answer);
      setFetched(answer);
    });
    return () => {
      live = false;
    };
  }, [user, memberShell]);
  const viewer: Viewer = user
    ? { status: "member", user }
    : memberShell && fetched !== null
      ? fetched
        ? { status: "member", user: fetched }
        : { status: "loading", user: null }
      : { status: "anonymous", user: null };
  return <ViewerContext.Provider value={viewer}>{children}</ViewerContext.Provider>;
}

export function useViewer(): Viewer {
  return useContext(ViewerContext);
}
