import { z } from "zod";

export const sportSchema = z.object({
  id: z.number().int(),
  key: z.string(),
  nameFr: z.string(),
  nameEn: z.string(),
  slugFr: z.string(),
  slugEn: z.string(),
  parentKey: z.string().nullable(),
});
export type Sport = z.infer<typeof sportSchema>;
