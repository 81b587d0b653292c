/** Writes features/illustrations/art/<sport>.svg from the drawing (see sport-art.ts). */
import fs from "node:fs";
import { SPORT_KEYS } from "../../shared/constants.ts";
import { sportArtSvg } from "./sport-art.ts";

for (const sport of SPORT_KEYS) {
  fs.writeFileSync(new URL(`./art/${sport}.svg`, import.meta.url), sportArtSvg(sport));
}
console.log(`${SPORT_KEYS.length} sport pictures written to features/illustrations/art/`);
