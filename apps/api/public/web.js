// Progressive enhancement for the api's web areas; every page works without it. Loaded as an external
// file (the Content-Security-Policy allows no inline script).
// A form with data-confirm asks before it is sent (revoking a key, ending sessions).
document.addEventListener('submit', (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement)) return;
  const question = form.dataset.confirm;
  if (question && !window.confirm(question)) event.preventDefault();
});

// Times: the server writes each <time datetime> in UTC; here it reads in the viewer's own zone and
// language, the exact UTC value staying in the datetime attribute and the title (docs/decisions.md,
// "Web pages: numbers and times as people read them").
const localTime = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  timeZoneName: 'short',
});
for (const element of document.querySelectorAll('time[datetime]')) {
  const when = new Date(element.dateTime);
  if (!element.dateTime.includes('T') || Number.isNaN(when.getTime())) continue;
  element.textContent = localTime.format(when);
}
