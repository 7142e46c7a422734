// Helpers shared by Counter and Greeting, so the bundle has a shared chunk
// that only their pages preload.
export const cx = (...names) => names.filter(Boolean).join(' ');

export function plural(n, one, many) {
  return n === 1 ? one : many;
}
