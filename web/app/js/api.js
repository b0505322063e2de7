// The gateway's JSON API (docs/GATEWAY.md), same origin: the gateway serves
// both the app and the API.
export class ApiError extends Error {
  constructor(status, body) {
    super(body?.error?.message || `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

// A read the gateway refused for its rate limits (429) waits what Retry-After
// says, up to this long, and is asked again, at most this often: scrubbing a
// replay fast is slowed down, not broken (docs/GATEWAY.md, "Budgets").
const MAX_RETRY_WAIT_MS = 5000;
const MAX_RETRIES = 3;

export async function api(path, params = {}, { signal } = {}) {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined && v !== null && v !== '') query.set(k, v);
  }
  const qs = query.toString();
  let response;
  for (let attempt = 0; ; ++attempt) {
    response = await fetch(`/api/v1${path}${qs ? `?${qs}` : ''}`, { signal, headers: { Accept: 'application/json' } });
    const waitMs = Number(response.headers.get('Retry-After')) * 1000;
    if (response.status !== 429 || attempt >= MAX_RETRIES || !(waitMs > 0 && waitMs <= MAX_RETRY_WAIT_MS)) break;
    await new Promise((resolve) => setTimeout(resolve, waitMs));
    if (signal?.aborted) break;
  }
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

// What a signed-in person reads of a refusal on their own pages (My bots,
// the account): the gateway's message, or plain words when it is not the
// request's fault.
export function refusalText(err) {
  if (err instanceof ApiError) {
    if (err.status === 401) return 'You are signed out: sign in again.';
    if (err.status >= 500) return 'The service cannot be reached just now; try again in a moment.';
    return err.body?.error?.message || err.message;
  }
  return 'The gateway cannot be reached; check your connection.';
}
