/**
 * The public tracking page's HTML, from handlebars templates that escape every value. No script
 * and no external asset: the one style sheet is inline, allowed by its hash in the
 * Content-Security-Policy, so the page needs nothing but its own document.
 */
import { createHash } from 'node:crypto';
import Handlebars from 'handlebars';
import type { PublicTracking } from '@parcel-logistics/contracts';

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1b1b;background:#f6f7f9}
header,main,footer{max-width:44rem;margin:0 auto;padding:1rem}
header{border-bottom:1px solid #d0d4da}
h1{font-size:1.5rem;margin:0}
h2{font-size:1.15rem;margin:1.5rem 0 .5rem}
form{display:flex;flex-wrap:wrap;gap:.5rem;align-items:flex-end;margin:1rem 0}
label{display:block;font-weight:600;width:100%}
input{flex:1 1 12rem;min-width:0;font:inherit;padding:.5rem;border:1px solid #5b6470;border-radius:4px}
button{font:inherit;padding:.5rem 1rem;border:0;border-radius:4px;background:#0b5cad;color:#fff;cursor:pointer}
button:focus,input:focus{outline:3px solid #f2a900;outline-offset:1px}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:0}
dt{font-weight:600}
dd{margin:0;overflow-wrap:anywhere}
ol{list-style:none;margin:0;padding:0}
li{background:#fff;border:1px solid #d0d4da;border-radius:6px;padding:.75rem;margin:0 0 .5rem}
li p{margin:0;overflow-wrap:anywhere}
.desc{font-weight:600}
.meta{color:#4a525c;font-size:.9rem}
.notice{background:#fff;border-left:4px solid #0b5cad;padding:.75rem}
`;

/** The Content-Security-Policy of every page: nothing but this document and its one inline style. */
export const CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "img-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const hbs = Handlebars.create();

const LAYOUT = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>{{title}}</title>
<style>{{{style}}}</style>
</head>
<body>
<header><h1>Parcel tracking</h1></header>
<main>
<form method="get" action="/track" role="search">
<label for="tracking_number">Tracking number</label>
<input id="tracking_number" name="tracking_number" value="{{number}}" autocomplete="off" autocapitalize="characters" spellcheck="false" maxlength="64">
<button type="submit">Track</button>
</form>
{{{content}}}
</main>
<footer class="meta">Times are Singapore time (SGT, UTC+8).</footer>
</body>
</html>
`;

const FOUND = `<h2 id="summary">Parcel {{trackingNumber}}</h2>
<dl aria-labelledby="summary">
<dt>Carrier</dt><dd data-field="carrier">{{carrier}}</dd>
<dt>Carrier’s number</dt><dd data-field="partner-tracking-no">{{#if partnerTrackingNo}}{{partnerTrackingNo}}{{else}}not yet assigned{{/if}}</dd>
{{#if lockerStation}}
<dt>Locker station</dt><dd data-field="locker-station">{{lockerStation.name}} ({{lockerStation.code}}), {{lockerStation.address}}, Singapore {{lockerStation.zipcode}}</dd>
{{/if}}
</dl>
<h2 id="timeline">Status history, most recent first</h2>
<ol aria-labelledby="timeline">
{{#each activities}}
<li data-status="{{statusCode}}"><p class="desc">{{statusDesc}}</p>
<p class="meta"><time datetime="{{dateTime}}">{{shown}}</time>{{#if location}} · {{location}}{{/if}}</p></li>
{{/each}}
</ol>
`;

const NOTHING = `<p class="notice" role="status">There is no tracking information for {{#if number}}<strong>{{number}}</strong>{{else}}this number{{/if}} yet. Check the number, or try again later.</p>
`;

const LIMITED = `<p class="notice" role="status">Too many requests from your address. Please wait a minute and try again.</p>
`;

const SEARCH = `<p>Enter the tracking number of your parcel to see where it is.</p>
`;

const layout = hbs.compile(LAYOUT, { strict: true });
const found = hbs.compile(FOUND);
const nothing = hbs.compile(NOTHING);
const search = hbs.compile(SEARCH);
const limited = hbs.compile(LIMITED);

const SGT = new Intl.DateTimeFormat('en-SG', {
  timeZone: 'Asia/Singapore',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** "22 Nov 2026, 14:05 SGT"; a time that does not parse is shown as stored. */
function sgtTime(iso: string): string {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? iso : `${SGT.format(ms)} SGT`;
}

const page = (title: string, number: string, content: string) => layout({ title, number, style: STYLE, content });

export const searchPage = (): string => page('Track a parcel', '', search({}));

export const limitedPage = (): string => page('Too many requests', '', limited({}));

export const nothingPage = (number: string): string => page('No tracking information', number, nothing({ number }));

export function trackingPage(t: PublicTracking): string {
  const activities = t.activities.map((a) => ({ ...a, shown: sgtTime(a.dateTime) }));
  return page(`Parcel ${t.trackingNumber}`, t.trackingNumber, found({ ...t, activities }));
}
