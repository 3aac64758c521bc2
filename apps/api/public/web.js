// Progressive enhancement for the api's web areas; every page works without it. Loaded as an external
// file (the Content-Security-Policy allows no inline script).
// A form with data-confirm asks before it is sent (revoking a key, ending sessions).
document.addEventListener('submit', (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement)) return;
  const question = form.dataset.confirm;
  if (question && !window.confirm(question)) event.preventDefault();
});
