/** Shared by the editor's component tests: a saved event and the editor inside a data router. */
import { render } from "@testing-library/react";
import { createRoutesStub } from "react-router";
import type { EditableEvent } from "../editor.contract.ts";
import { EventEditor } from "./EventEditor.tsx";

export function savedEvent(overrides: Partial<EditableEvent> = {}): EditableEvent {
  return {
    id: 42,
    slug: "trail-des-cretes-2026",
    status: "active",
    checkStatus: "checked",
    cancelled: false,
    postponed: false,
    originalDate: null,
    coverImage: null,
    headerImage: null,
    access: "owner",
    name: "Trail des Crêtes",
    sport: "trail",
    isCompetition: true,
    isConnected: false,
    scope: "regional",
    startDate: "2026-06-13",
    endDate: "2026-06-14",
    dateConfirmed: false,
    certified: false,
    communeCode: "38185",
    address: null,
    zipcode: "38000",
    city: "Grenoble",
    place: null,
    countryCode: "FR",
    lat: 45.19,
    lng: 5.72,
    organizerName: "Les Crêtes",
    description: "<p>Un beau trail.</p>",
    options: { refuelling: true, meal: false, cloakroom: false, showers: false, reward: false },
    contactEmail: null,
    contactPhone: null,
    website: null,
    registrationUrl: null,
    registrationOpensAt: null,
    liveTrackingUrl: null,
    facebookUrl: null,
    instagramUrl: null,
    xUrl: null,
    youtubeUrl: null,
    vimeoUrl: null,
    liveVideoUrl: null,
    courses: [
      {
        id: 7,
        name: "Trail 25 km",
        type: "race",
        distance: 25_000,
        duration: null,
        elevationGain: 1200,
        bibQuota: null,
        description: null,
        date: "2026-06-14",
        startTime: "08:30",
        startPlace: null,
        finishPlace: null,
        refuellingPoints: null,
        mandatoryEquipment: null,
        minAge: null,
        itraPoints: null,
        utmbIndex: null,
        challenge: null,
        prices: [{ label: "Prévente", startsOn: null, endsOn: "2026-05-31", price: 25 }],
        trackId: null,
      },
    ],
    ...overrides,
  };
}

export function renderEditor(event: EditableEvent | null, path = "/user/evenement/42") {
  const Stub = createRoutesStub([
    {
      path: "/user/evenement/:id",
      Component: () => (
        <EventEditor
          locale="fr"
          userId={5}
          emailVerified
          event={event}
          countries={[{ code: "FR", name: "France" }]}
          visuals={{ coverImage: null, headerImage: null, gallery: [] }}
        />
      ),
    },
    { path: "/user/evenements", Component: () => <main data-testid="my-events-page" /> },
  ]);
  return render(<Stub initialEntries={[path]} />);
}
