// The gateway's JSON API (docs/GATEWAY.md), same origin: the gateway serves
// both the app and the API.
export class ApiError extends Error {
  constructor(status, body) {
    super(body?.error?.message || `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

export async function api(path, params = {}, { signal } = {}) {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined && v !== null && v !== '') query.set(k, v);
  }
  const qs = query.toString();
  const response = await fetch(`/api/v1${path}${qs ? `?${qs}` : ''}`, { signal, headers: { Accept: 'application/json' } });
  let body = null;
  try {
    body = await response.json();
  } catch {
    // A proxy's HTML error page: the status says enough.
  }
  if (!response.ok) throw new ApiError(response.status, body);
  return body;
}

export const enc = encodeURIComponent;

// A request that changes something (sign in, queue, answer): JSON in, JSON or
// nothing (204) out. The session is an HttpOnly cookie the browser sends by
// itself; SameSite=Strict keeps other sites from sending it.
export async function send(method, path, body) {
  const response = await fetch(`/api/v1${path}`, {
    method,
    headers: { Accept: 'application/json', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let answer = null;
  if (response.status !== 204) {
    try {
      answer = await response.json();
    } catch {
      // No JSON: the status says enough.
    }
  }
  if (!response.ok) throw new ApiError(response.status, answer);
  return answer;
}
