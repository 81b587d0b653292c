import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate } from "react-router";
import { apiFetch } from "../../../shared/api-client.ts";
import { loginHref } from "../../../shared/i18n/pages.ts";
import { useLocale } from "../../../shared/i18n/use-locale.ts";
import { showToast } from "../../../shared/ui/lazy-toasts.tsx";
import { useViewer } from "../../identity/components/viewer.tsx";
import type { FavoriteResponse, FavoritesResponse } from "../engagement.contract.ts";

/** The hash a visitor comes back with after signing in to save a favourite: `#favori-42`. */
export const FAVORITE_HASH = /^#favori-(\d{1,10})$/;

type MemberEvents = {
  /** The member's favourite event ids; null until known (and for visitors). */
  favorites: ReadonlySet<number> | null;
  /** Saves or unsaves; a visitor is sent to sign in and comes back to save it. */
  toggleFavorite: (eventId: number, name: string) => Promise<void>;
  pending: ReadonlySet<number>;
};

const MemberEventsContext = createContext<MemberEvents>({
  favorites: null,
  toggleFavorite: async () => {},
  pending: new Set(),
});

/**
 * The member's favourites for every heart of the page, asked once the browser knows who is signed
 * in (the page itself is the same for everyone, decision 024). After signing in from a heart, the
 * visitor comes back with `#favori-<id>` and the favourite is saved here.
 */
export function MemberEventsProvider({ children }: { children: ReactNode }) {
  const viewer = useViewer();
  const { t } = useTranslation("engagement");
  const locale = useLocale();
  const location = useLocation();
  const navigate = useNavigate();
  const [favorites, setFavorites] = useState<Set<number> | null>(null);
  const [pending, setPending] = useState<Set<number>>(new Set());
  const memberId = viewer.status === "member" ? viewer.user.id : null;

  useEffect(() => {
    if (memberId === null) {
      setFavorites(null);
      return;
    }
    let live = true;
    apiFetch("/api/user/favorites")
      .then((response) => (response.ok ? (response.json() as Promise<FavoritesResponse>) : null))
      .then((answer) => {
        if (live && answer) setFavorites(new Set(answer.items.map((item) => item.id)));
      })
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [memberId]);

  const save = useCallback(
    async (eventId: number, on: boolean | undefined) => {
      setPending((p) => new Set(p).add(eventId));
      try {
        const response = await apiFetch(`/api/user/favorite/${eventId}`, {
          method: "POST",
          body: JSON.stringify(on === undefined ? {} : { on }),
        });
        if (!response.ok) throw new Error(String(response.status));
        const answer = (await response.json()) as FavoriteResponse;
        setFavorites((current) => {
          const next = new Set(current ?? []);
          if (answer.favorite) next.add(eventId);
          else next.delete(eventId);
          return next;
        });
        showToast("success", t(answer.favorite ? "favorite.added" : "favorite.removed"));
      } catch {
        showToast("error", t("favorite.failed"));
      } finally {
        setPending((p) => {
          const next = new Set(p);
          next.delete(eventId);
          return next;
        });
      }
    },
    [t],
  );

  // Back from signing in with a favourite to save.
  useEffect(() => {
    const match = FAVORITE_HASH.exec(location.hash);
    if (!match || memberId === null) return;
    navigate(
      { pathname: location.pathname, search: location.search, hash: "" },
      { replace: true, preventScrollReset: true },
    );
    void save(Number(match[1]), true);
  }, [location.hash, location.pathname, location.search, memberId, navigate, save]);

  const toggleFavorite = useCallback(
    async (eventId: number) => {
      if (viewer.status === "anonymous") {
        const back = `${location.pathname}${location.search}#favori-${eventId}`;
        navigate(loginHref(locale, back));
        return;
      }
      if (viewer.status === "loading") return;
      await save(eventId, undefined);
    },
    [viewer.status, location.pathname, location.search, locale, navigate, save],
  );

  const value = useMemo(() => ({ favorites, toggleFavorite, pending }), [favorites, toggleFavorite, pending]);
  return <MemberEventsContext.Provider value={value}>{children}</MemberEventsContext.Provider>;
}

export function useMemberEvents(): MemberEvents {
  return useContext(MemberEventsContext);
}
