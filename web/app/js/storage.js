// What the app keeps in the browser's localStorage (the ladder last chosen,
// the beep, the signed-in hint), read and written where a browser may refuse
// it: private modes throw on writing, and where storage is blocked merely
// reading window.localStorage throws. So the storage is read inside the try,
// and a refusal is never the page's error: a read gives `refused`, a write
// is not kept. A browser without localStorage at all refuses the same way.
// `storage` stands in for localStorage in the unit tests.

// The value kept under `key`, null when none is, `refused` when storage is.
export function read(key, { storage, refused = null } = {}) {
  try {
    storage ??= globalThis.localStorage;
    return storage ? storage.getItem(key) : refused;
  } catch {
    return refused;
  }
}

// Keeps `value` under `key`, or forgets the key when `value` is null or
// undefined; false when the storage refused it.
export function write(key, value, { storage } = {}) {
  try {
    storage ??= globalThis.localStorage;
    if (!storage) return false;
    if (value === null || value === undefined) storage.removeItem(key);
    else storage.setItem(key, value);
    return true;
  } catch {
    return false;
  }
}
