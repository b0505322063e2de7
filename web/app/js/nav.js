// Moving to another page of the app without reloading it: the router in
// main.js listens for popstate, which pushState alone does not fire.
export function navigate(href, { replace = false } = {}) {
  if (replace) history.replaceState(null, '', href);
  else history.pushState(null, '', href);
  // The state marks a move to a new page, which opens at its top (the router
  // scrolls there); the browser's back and forward carry none.
  window.dispatchEvent(new PopStateEvent('popstate', { state: { navigated: true } }));
}
