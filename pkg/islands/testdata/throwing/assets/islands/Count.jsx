// Count reads its children instead of passing them through (which islands
// must not do): the bundle cannot splice children into one render of it and
// renders it with each call's own children (test of that fallback).
export default function Count({ childrenHtml = '' }) {
  return <p className="count">{childrenHtml.length} characters</p>;
}
