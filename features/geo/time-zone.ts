/** Time zone of a department's races: overseas departments have their own, the rest is Paris time. */
export function timeZoneOfDepartment(code: string | null | undefined): string {
  switch (code) {
    case "971":
      return "America/Guadeloupe";
    case "972":
      return "America/Martinique";
    case "973":
      return "America/Cayenne";
    case "974":
      return "Indian/Reunion";
    case "976":
      return "Indian/Mayotte";
    default:
      return "Europe/Paris";
  }
}
