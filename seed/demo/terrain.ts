/**
 * Rough outdoor geography of France for the demo catalogue: mountain ranges and waters as anchor
 * points with a radius of influence. Coordinates are approximate centres, good enough to put trails
 * in the mountains and swimruns by a lake or the sea.
 */

export type Anchor = {
  /** The word that appears in race names ("Vercors", "lac d'Annecy"). */
  name: string;
  /** The name with its French preposition and article ("du Vercors", "du lac d'Annecy"). */
  de: string;
  lat: number;
  lng: number;
  /** Radius of influence, km. */
  radius: number;
  /** 1 high mountain, 0.6 mid mountain, 0.35 hills (massifs only). */
  height?: number;
  /** Highest altitude its courses reach, metres (massifs only): a pass or a summit reached by trails. */
  top?: number;
  kind?: "lake" | "sea" | "river";
};

const m = (
  name: string,
  de: string,
  lat: number,
  lng: number,
  radius: number,
  height: number,
  top: number,
): Anchor => ({ name, de, lat, lng, radius, height, top });

export const MASSIFS: readonly Anchor[] = [
  // Alps
  m("Mont-Blanc", "du Mont-Blanc", 45.92, 6.87, 25, 1, 2700),
  m("Aravis", "des Aravis", 45.9, 6.45, 18, 1, 2400),
  m("Chablais", "du Chablais", 46.25, 6.65, 22, 1, 2300),
  m("Bornes", "des Bornes", 45.98, 6.33, 15, 0.8, 2000),
  m("Tournette", "de la Tournette", 45.83, 6.28, 10, 0.8, 2351),
  m("Semnoz", "du Semnoz", 45.79, 6.1, 10, 0.6, 1699),
  m("Salève", "du Salève", 46.12, 6.18, 8, 0.5, 1379),
  m("Giffre", "du Giffre", 46.05, 6.72, 15, 1, 2500),
  m("Bauges", "des Bauges", 45.65, 6.15, 18, 0.9, 2200),
  m("Chartreuse", "de Chartreuse", 45.35, 5.8, 18, 0.9, 2080),
  m("Vercors", "du Vercors", 45.0, 5.5, 28, 0.9, 2340),
  m("Belledonne", "de Belledonne", 45.2, 6.0, 18, 1, 2800),
  m("Beaufortain", "du Beaufortain", 45.7, 6.6, 15, 1, 2700),
  m("Vanoise", "de la Vanoise", 45.35, 6.75, 25, 1, 3000),
  m("Maurienne", "de Maurienne", 45.25, 6.4, 20, 1, 2800),
  m("Oisans", "de l'Oisans", 45.05, 6.1, 20, 1, 3000),
  m("Écrins", "des Écrins", 44.85, 6.35, 25, 1, 3000),
  m("Queyras", "du Queyras", 44.75, 6.85, 18, 1, 2900),
  m("Dévoluy", "du Dévoluy", 44.65, 5.9, 15, 0.9, 2700),
  m("Ubaye", "de l'Ubaye", 44.4, 6.65, 20, 1, 2900),
  m("Mercantour", "du Mercantour", 44.1, 7.2, 28, 1, 2800),
  m("Verdon", "du Verdon", 43.8, 6.3, 20, 0.7, 1900),
  m("Baronnies", "des Baronnies", 44.3, 5.35, 20, 0.6, 1600),
  m("Ventoux", "du Ventoux", 44.17, 5.28, 15, 0.7, 1910),
  m("Luberon", "du Luberon", 43.8, 5.4, 18, 0.5, 1125),
  m("Sainte-Victoire", "de la Sainte-Victoire", 43.53, 5.58, 12, 0.5, 1011),
  m("Alpilles", "des Alpilles", 43.75, 4.85, 10, 0.35, 498),
  m("Maures", "des Maures", 43.25, 6.35, 18, 0.4, 780),
  m("Estérel", "de l'Estérel", 43.5, 6.85, 12, 0.4, 618),
  m("Bugey", "du Bugey", 45.85, 5.55, 20, 0.6, 1530),
  m("Diois", "du Diois", 44.7, 5.4, 20, 0.7, 2000),
  // Jura
  m("Haut-Jura", "du Haut-Jura", 46.4, 5.95, 25, 0.7, 1720),
  m("Jura", "du Jura", 46.95, 6.35, 30, 0.6, 1460),
  // Vosges
  m("Ballons des Vosges", "des Ballons des Vosges", 47.85, 6.9, 20, 0.7, 1424),
  m("Hautes-Vosges", "des Hautes-Vosges", 48.05, 7.0, 25, 0.7, 1363),
  m("Vosges du Nord", "des Vosges du Nord", 48.95, 7.45, 20, 0.4, 580),
  // Massif central
  m("Sancy", "du Sancy", 45.53, 2.81, 18, 0.8, 1886),
  m("Chaîne des Puys", "de la Chaîne des Puys", 45.78, 2.95, 15, 0.6, 1465),
  m("Cantal", "du Cantal", 45.1, 2.7, 25, 0.8, 1855),
  m("Aubrac", "de l'Aubrac", 44.65, 3.0, 20, 0.6, 1469),
  m("Margeride", "de la Margeride", 44.85, 3.4, 20, 0.5, 1551),
  m("Cévennes", "des Cévennes", 44.2, 3.7, 28, 0.7, 1700),
  m("Mont Lozère", "du Mont Lozère", 44.42, 3.75, 12, 0.7, 1699),
  m("Aigoual", "de l'Aigoual", 44.12, 3.58, 12, 0.7, 1567),
  m("Monts du Forez", "des Monts du Forez", 45.65, 3.85, 20, 0.6, 1634),
  m("Pilat", "du Pilat", 45.38, 4.57, 15, 0.6, 1432),
  m("Monts d'Ardèche", "des Monts d'Ardèche", 44.85, 4.3, 22, 0.6, 1753),
  m("Gorges du Tarn", "des Gorges du Tarn", 44.3, 3.3, 15, 0.6, 1250),
  m("Montagne Noire", "de la Montagne Noire", 43.45, 2.25, 20, 0.5, 1210),
  m("Monts de Lacaune", "des Monts de Lacaune", 43.7, 2.65, 18, 0.5, 1266),
  m("Morvan", "du Morvan", 47.15, 4.05, 25, 0.4, 901),
  m("Livradois", "du Livradois", 45.5, 3.65, 18, 0.5, 1218),
  m("Millevaches", "de Millevaches", 45.65, 2.05, 25, 0.4, 977),
  // Pyrenees
  m("Pays basque", "du Pays basque", 43.2, -1.35, 25, 0.6, 2017),
  m("Vallée d'Ossau", "de la Vallée d'Ossau", 42.95, -0.45, 18, 1, 2800),
  m("Pic du Midi", "du Pic du Midi", 42.94, 0.14, 15, 1, 2877),
  m("Néouvielle", "du Néouvielle", 42.85, 0.15, 18, 1, 3000),
  m("Luchonnais", "du Luchonnais", 42.8, 0.6, 18, 1, 2800),
  m("Couserans", "du Couserans", 42.9, 1.1, 20, 0.9, 2800),
  m("Haute-Ariège", "de la Haute-Ariège", 42.75, 1.7, 20, 1, 2900),
  m("Cerdagne", "de Cerdagne", 42.45, 2.0, 18, 1, 2900),
  m("Canigou", "du Canigou", 42.52, 2.46, 18, 1, 2784),
  m("Corbières", "des Corbières", 42.95, 2.6, 25, 0.4, 1230),
  m("Albères", "des Albères", 42.48, 2.95, 12, 0.5, 1256),
  // Corsica
  m("Monte Cinto", "du Monte Cinto", 42.38, 8.95, 25, 1, 2706),
  m("Monte Rotondo", "du Monte Rotondo", 42.2, 9.05, 20, 1, 2622),
  m("Bavella", "de Bavella", 41.8, 9.22, 18, 0.9, 1800),
  m("Cap Corse", "du Cap Corse", 42.85, 9.4, 15, 0.5, 1307),
  // Hills of the west and north
  m("Monts d'Arrée", "des Monts d'Arrée", 48.4, -3.9, 18, 0.35, 385),
  m("Suisse normande", "de la Suisse normande", 48.9, -0.45, 15, 0.35, 365),
  // Overseas
  m("Piton des Neiges", "du Piton des Neiges", -21.1, 55.48, 15, 1, 3070),
  m("Piton de la Fournaise", "du Piton de la Fournaise", -21.24, 55.71, 15, 1, 2632),
  m("Mafate", "de Mafate", -21.05, 55.4, 10, 1, 2200),
  m("Soufrière", "de la Soufrière", 16.04, -61.66, 15, 0.8, 1467),
  m("Montagne Pelée", "de la Montagne Pelée", 14.81, -61.17, 12, 0.8, 1397),
];

const w = (name: string, de: string, lat: number, lng: number, radius: number, kind: Anchor["kind"]): Anchor => ({
  name,
  de,
  lat,
  lng,
  radius,
  kind,
});

export const WATERS: readonly Anchor[] = [
  // Lakes
  w("lac d'Annecy", "du lac d'Annecy", 45.86, 6.17, 12, "lake"),
  w("lac du Bourget", "du lac du Bourget", 45.73, 5.87, 12, "lake"),
  w("Léman", "du Léman", 46.38, 6.48, 14, "lake"),
  w("lac d'Aiguebelette", "du lac d'Aiguebelette", 45.55, 5.8, 8, "lake"),
  w("lac de Paladru", "du lac de Paladru", 45.46, 5.54, 8, "lake"),
  w("lacs de Laffrey", "des lacs de Laffrey", 45.01, 5.77, 8, "lake"),
  w("Serre-Ponçon", "de Serre-Ponçon", 44.52, 6.35, 14, "lake"),
  w("lac de Sainte-Croix", "du lac de Sainte-Croix", 43.77, 6.18, 10, "lake"),
  w("lac de Vouglans", "du lac de Vouglans", 46.4, 5.67, 10, "lake"),
  w("lac de Chalain", "du lac de Chalain", 46.66, 5.78, 8, "lake"),
  w("lac de Saint-Point", "du lac de Saint-Point", 46.82, 6.3, 8, "lake"),
  w("lac de Gérardmer", "du lac de Gérardmer", 48.07, 6.86, 8, "lake"),
  w("lac de Pierre-Percée", "du lac de Pierre-Percée", 48.47, 6.92, 8, "lake"),
  w("lac de Madine", "du lac de Madine", 48.93, 5.73, 10, "lake"),
  w("lac du Der", "du lac du Der", 48.57, 4.75, 12, "lake"),
  w("lac d'Orient", "du lac d'Orient", 48.27, 4.38, 12, "lake"),
  w("lac des Settons", "du lac des Settons", 47.19, 4.07, 8, "lake"),
  w("lac Kir", "du lac Kir", 47.32, 5.0, 8, "lake"),
  w("lac de Vassivière", "du lac de Vassivière", 45.8, 1.86, 12, "lake"),
  w("lac de Pareloup", "du lac de Pareloup", 44.2, 2.77, 10, "lake"),
  w("lac Chambon", "du lac Chambon", 45.57, 2.91, 8, "lake"),
  w("lac de Naussac", "du lac de Naussac", 44.73, 3.83, 8, "lake"),
  w("lac du Salagou", "du lac du Salagou", 43.65, 3.38, 10, "lake"),
  w("lac de Saint-Ferréol", "du lac de Saint-Ferréol", 43.44, 2.0, 8, "lake"),
  w("lac de Montbel", "du lac de Montbel", 42.97, 1.97, 8, "lake"),
  w("lac de Matemale", "du lac de Matemale", 42.58, 2.1, 8, "lake"),
  w("lac de Saint-Cassien", "du lac de Saint-Cassien", 43.57, 6.8, 8, "lake"),
  w("lac de Guerlédan", "du lac de Guerlédan", 48.2, -3.05, 10, "lake"),
  w("lac de Vioreau", "du lac de Vioreau", 47.5, -1.45, 8, "lake"),
  w("lac de Grand-Lieu", "du lac de Grand-Lieu", 47.08, -1.67, 10, "lake"),
  w("lac de Maine", "du lac de Maine", 47.45, -0.59, 8, "lake"),
  w("lac de Lacanau", "du lac de Lacanau", 45.0, -1.12, 10, "lake"),
  w("lac d'Hourtin", "du lac d'Hourtin", 45.18, -1.08, 10, "lake"),
  w("lac de Biscarrosse", "du lac de Biscarrosse", 44.4, -1.17, 10, "lake"),
  w("Miribel-Jonage", "de Miribel-Jonage", 45.81, 4.98, 8, "lake"),
  w("lac de Créteil", "du lac de Créteil", 48.78, 2.45, 6, "lake"),
  w("étangs de Cergy", "des étangs de Cergy", 49.03, 2.05, 8, "lake"),
  w("lac du Héron", "du lac du Héron", 50.63, 3.17, 8, "lake"),
  w("étang de Thau", "de l'étang de Thau", 43.4, 3.62, 12, "lake"),
  // Rivers and gorges
  w("gorges de l'Ardèche", "des gorges de l'Ardèche", 44.35, 4.4, 12, "river"),
  w("vallée de la Dordogne", "de la vallée de la Dordogne", 44.85, 1.25, 14, "river"),
  w("bords de Loire", "des bords de Loire", 47.4, 1.0, 14, "river"),
  // Coasts
  w("Côte d'Opale", "de la Côte d'Opale", 50.75, 1.6, 18, "sea"),
  w("baie de Somme", "de la baie de Somme", 50.2, 1.6, 14, "sea"),
  w("Côte d'Albâtre", "de la Côte d'Albâtre", 49.85, 0.6, 18, "sea"),
  w("Côte Fleurie", "de la Côte Fleurie", 49.35, 0.07, 14, "sea"),
  w("Cotentin", "du Cotentin", 49.6, -1.7, 18, "sea"),
  w("baie du Mont-Saint-Michel", "de la baie du Mont-Saint-Michel", 48.65, -1.55, 14, "sea"),
  w("Côte d'Émeraude", "de la Côte d'Émeraude", 48.63, -2.1, 16, "sea"),
  w("Côte de Granit rose", "de la Côte de Granit rose", 48.82, -3.45, 14, "sea"),
  w("Abers", "des Abers", 48.58, -4.6, 14, "sea"),
  w("presqu'île de Crozon", "de la presqu'île de Crozon", 48.25, -4.5, 14, "sea"),
  w("Cap Sizun", "du Cap Sizun", 48.03, -4.55, 12, "sea"),
  w("Glénan", "des Glénan", 47.85, -3.95, 14, "sea"),
  w("presqu'île de Quiberon", "de la presqu'île de Quiberon", 47.5, -3.12, 12, "sea"),
  w("golfe du Morbihan", "du golfe du Morbihan", 47.58, -2.8, 14, "sea"),
  w("Côte sauvage", "de la Côte sauvage", 47.28, -2.4, 14, "sea"),
  w("Côte de Jade", "de la Côte de Jade", 47.12, -2.1, 12, "sea"),
  w("Noirmoutier", "de Noirmoutier", 46.98, -2.25, 12, "sea"),
  w("Côte de Lumière", "de la Côte de Lumière", 46.5, -1.78, 16, "sea"),
  w("île de Ré", "de l'île de Ré", 46.2, -1.4, 12, "sea"),
  w("Oléron", "d'Oléron", 45.9, -1.3, 14, "sea"),
  w("Côte de Beauté", "de la Côte de Beauté", 45.62, -1.02, 12, "sea"),
  w("bassin d'Arcachon", "du bassin d'Arcachon", 44.66, -1.17, 14, "sea"),
  w("Côte d'Argent", "de la Côte d'Argent", 44.1, -1.3, 18, "sea"),
  w("Côte basque", "de la Côte basque", 43.45, -1.58, 14, "sea"),
  w("Côte Vermeille", "de la Côte Vermeille", 42.52, 3.1, 12, "sea"),
  w("Leucate", "de Leucate", 42.9, 3.05, 12, "sea"),
  w("Camargue", "de Camargue", 43.5, 4.4, 16, "sea"),
  w("Côte Bleue", "de la Côte Bleue", 43.33, 5.2, 12, "sea"),
  w("Calanques", "des Calanques", 43.21, 5.45, 10, "sea"),
  w("presqu'île de Giens", "de la presqu'île de Giens", 43.05, 6.1, 12, "sea"),
  w("golfe de Saint-Tropez", "du golfe de Saint-Tropez", 43.27, 6.63, 12, "sea"),
  w("îles de Lérins", "des îles de Lérins", 43.52, 7.03, 10, "sea"),
  w("baie des Anges", "de la baie des Anges", 43.68, 7.25, 12, "sea"),
  w("golfe d'Ajaccio", "du golfe d'Ajaccio", 41.9, 8.7, 12, "sea"),
  w("Porto-Vecchio", "de Porto-Vecchio", 41.6, 9.3, 12, "sea"),
  w("Balagne", "de Balagne", 42.57, 8.75, 12, "sea"),
  w("lagon de Saint-Gilles", "du lagon de Saint-Gilles", -21.05, 55.22, 12, "sea"),
  w("Grand Cul-de-sac marin", "du Grand Cul-de-sac marin", 16.3, -61.6, 12, "sea"),
  w("baie de Fort-de-France", "de la baie de Fort-de-France", 14.58, -61.05, 12, "sea"),
  w("îles du Salut", "des îles du Salut", 5.16, -52.65, 14, "sea"),
  w("lagon de Mayotte", "du lagon de Mayotte", -12.8, 45.15, 14, "sea"),
];

/**
 * Departments whose outdoor life is mostly mountains: Alps, Jura, Vosges, Pyrenees, Massif central,
 * Corsica and the volcanic islands. Used to weight trails and by the tests of that bias.
 */
export const MOUNTAIN_DEPARTMENTS: ReadonlySet<string> = new Set([
  // Alps
  "01",
  "04",
  "05",
  "06",
  "26",
  "38",
  "73",
  "74",
  // Jura and Vosges
  "25",
  "39",
  "68",
  "88",
  "90",
  // Pyrenees
  "09",
  "64",
  "65",
  "66",
  // Massif central
  "07",
  "12",
  "15",
  "19",
  "42",
  "43",
  "48",
  "63",
  // Corsica and overseas volcanoes
  "2A",
  "2B",
  "971",
  "972",
  "974",
]);

const EARTH_RADIUS = 6_371_008.8;
const rad = (deg: number) => (deg * Math.PI) / 180;

/** Great-circle distance in metres. */
export function haversine(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const dLat = rad(lat2 - lat1);
  const dLng = rad(lng2 - lng1);
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS * Math.asin(Math.min(1, Math.sqrt(a)));
}

export type Terrain = {
  /** 0 (plain) to 1 (high mountain). */
  mountain: number;
  /** 0 (far from water) to 1 (on the shore). */
  water: number;
  massif: Anchor | null;
  waterBody: Anchor | null;
};

/** How mountainous and how close to a lake or the sea a place is, with the nearest named massif and water. */
export function terrainAt(lat: number, lng: number, departmentCode: string): Terrain {
  let massifScore = 0;
  let massif: Anchor | null = null;
  for (const a of MASSIFS) {
    if (Math.abs(a.lat - lat) > 1.2 || Math.abs(a.lng - lng) > 1.6) continue;
    const d = haversine(lat, lng, a.lat, a.lng) / 1000;
    const score = (a.height ?? 0.5) * Math.exp(-((d / a.radius) ** 2));
    if (score > massifScore) {
      massifScore = score;
      massif = a;
    }
  }
  const mountain = MOUNTAIN_DEPARTMENTS.has(departmentCode) ? Math.max(massifScore, 0.25) : massifScore;
  let water = 0;
  let waterBody: Anchor | null = null;
  for (const a of WATERS) {
    if (Math.abs(a.lat - lat) > 0.8 || Math.abs(a.lng - lng) > 1.1) continue;
    const d = haversine(lat, lng, a.lat, a.lng) / 1000;
    const score = Math.exp(-((d / a.radius) ** 2));
    if (score > water) {
      water = score;
      waterBody = a;
    }
  }
  return { mountain, water, massif: massifScore > 0.2 ? massif : null, waterBody: water > 0.2 ? waterBody : null };
}

/**
 * Altitudes of the places where races start, by department: [valley floor or shore, highest villages
 * and resorts], metres. Approximate, from the relief of each department (Annecy's lake is at 447 m,
 * Clermont-Ferrand's plain at 350 m, Font-Romeu at 1,800 m).
 */
export const DEPARTMENT_ELEVATIONS: Readonly<Record<string, readonly [number, number]>> = {
  "01": [200, 1000],
  "02": [50, 250],
  "03": [200, 700],
  "04": [350, 1800],
  "05": [550, 2000],
  "06": [0, 1800],
  "07": [60, 1300],
  "08": [100, 450],
  "09": [300, 1500],
  "10": [80, 300],
  "11": [0, 1000],
  "12": [150, 1200],
  "13": [0, 500],
  "14": [0, 250],
  "15": [400, 1250],
  "16": [30, 300],
  "17": [0, 100],
  "18": [100, 400],
  "19": [100, 950],
  "21": [180, 550],
  "22": [0, 300],
  "23": [200, 800],
  "24": [30, 400],
  "25": [230, 1100],
  "26": [100, 1100],
  "27": [0, 200],
  "28": [100, 250],
  "29": [0, 250],
  "2A": [0, 1200],
  "2B": [0, 1100],
  "30": [0, 1000],
  "31": [130, 1500],
  "32": [100, 300],
  "33": [0, 150],
  "34": [0, 800],
  "35": [0, 200],
  "36": [80, 400],
  "37": [40, 180],
  "38": [200, 1800],
  "39": [180, 1200],
  "40": [0, 150],
  "41": [60, 200],
  "42": [250, 1100],
  "43": [450, 1200],
  "44": [0, 100],
  "45": [80, 200],
  "46": [100, 600],
  "47": [30, 250],
  "48": [300, 1400],
  "49": [20, 200],
  "50": [0, 250],
  "51": [70, 250],
  "52": [150, 450],
  "53": [50, 300],
  "54": [180, 450],
  "55": [150, 400],
  "56": [0, 250],
  "57": [150, 450],
  "58": [150, 700],
  "59": [0, 200],
  "60": [30, 200],
  "61": [100, 350],
  "62": [0, 200],
  "63": [320, 1300],
  "64": [0, 1200],
  "65": [250, 1600],
  "66": [0, 1800],
  "67": [130, 700],
  "68": [180, 1000],
  "69": [150, 800],
  "70": [200, 600],
  "71": [170, 600],
  "72": [40, 200],
  "73": [250, 2000],
  "74": [370, 1800],
  "75": [30, 130],
  "76": [0, 200],
  "77": [40, 200],
  "78": [20, 200],
  "79": [20, 250],
  "80": [0, 200],
  "81": [100, 800],
  "82": [60, 400],
  "83": [0, 800],
  "84": [20, 800],
  "85": [0, 200],
  "86": [50, 250],
  "87": [150, 600],
  "88": [250, 1000],
  "89": [80, 400],
  "90": [350, 800],
  "91": [40, 170],
  "92": [25, 170],
  "93": [30, 120],
  "94": [30, 100],
  "95": [20, 200],
  "971": [0, 600],
  "972": [0, 600],
  "973": [0, 100],
  "974": [0, 1600],
  "976": [0, 200],
};

/** FNV-1a of a string, in [0, 1): a commune's own draw, the same whatever the catalogue draws. */
function unitHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 13;
  h = Math.imul(h, 0x5bd1e995);
  h ^= h >>> 15;
  return (h >>> 0) / 4294967296;
}

export type Relief = {
  /** Altitude of the place, metres. */
  elevation: number;
  /** Lowest altitude its courses may go down to. */
  floor: number;
  /** Highest altitude its courses may reach (the nearest massif's passes and summits). */
  ceiling: number;
};

/**
 * Altitude of a commune and the band its courses stay in: the department's range, high near a big
 * massif, low on the shore and in big towns (which lie in valleys), with the commune's own draw.
 */
export function reliefAt(
  place: { code: string; departmentCode: string; population: number },
  terrain: Pick<Terrain, "mountain" | "water" | "massif" | "waterBody">,
): Relief {
  const [low, high] = DEPARTMENT_ELEVATIONS[place.departmentCode] ?? [0, 300];
  const h = unitHash(place.code);
  const massif = terrain.massif ? terrain.mountain : 0;
  let f = Math.min(1, massif ** 0.7 * (0.35 + 0.6 * h) + 0.3 * h * h * (1 - massif));
  if (terrain.waterBody?.kind === "sea") f *= 1 - 0.9 * terrain.water;
  if (place.population > 50_000) f *= 0.3;
  else if (place.population > 10_000) f *= 0.6;
  const elevation = Math.round(low + (high - low) * f);
  // Up to the massif's passes and summits, else no higher than the department's highest villages.
  const ceiling = Math.max(elevation + 30, Math.min(terrain.massif?.top ?? high, elevation + 1_800), high);
  const floor = Math.max(0, Math.min(elevation, low - 30));
  return { elevation, floor, ceiling };
}
