// Moving to another page of the app without reloading it: the router in
// main.js listens for popstate, which pushState alone does not fire.
export function navigate(href, { replace = false } = {}) {
  if (replace) history.replaceState(null, '', href);
  else history.pushState(null, '', href);
  window.dispatchEvent(new PopStateEvent('popstate'));
}
