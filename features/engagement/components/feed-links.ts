/**
 * One-click subscriptions to the member's private iCalendar feed: the webcal:// address (Apple
 * Calendar, and the default calendar app of most systems), Google Calendar's and Outlook.com's
 * "add by URL" pages. Google takes the webcal address as `cid`; Outlook the https one and a name.
 */
export function feedLinks(url: string, name: string): { webcal: string; google: string; outlook: string } {
  const webcal = url.replace(/^https?:\/\//i, "webcal://");
  return {
    webcal,
    google: `https://calendar.google.com/calendar/r?cid=${encodeURIComponent(webcal)}`,
    outlook: `https://outlook.live.com/calendar/0/addfromweb?url=${encodeURIComponent(url)}&name=${encodeURIComponent(name)}`,
  };
}
