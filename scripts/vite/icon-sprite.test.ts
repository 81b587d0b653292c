import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { importedIcons } from "./icon-sprite.ts";

describe("icon sprite", () => {
  it("finds the icons the sources import, under their lucide names, types and duplicates left out", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dossard-icons-"));
    const a = path.join(dir, "a.tsx");
    const b = path.join(dir, "b.tsx");
    fs.writeFileSync(a, 'import { MapPin, Map as MapIcon, type LucideIcon } from "lucide-react";\n');
    fs.writeFileSync(
      b,
      'import {\n  Calendar,\n  MapPin,\n} from "lucide-react";\nimport type { LucideProps } from "lucide-react";\n',
    );
    try {
      expect(importedIcons([a, b])).toEqual(["Calendar", "Map", "MapPin"]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
