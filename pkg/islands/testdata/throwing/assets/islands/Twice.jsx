// Twice renders its children twice (islands must render them once): the
// bundle renders it with each call's own children (test of that fallback).
export default function Twice({ childrenHtml = '' }) {
  return (
    <div className="twice">
      <div data-sg-children="" dangerouslySetInnerHTML={{ __html: childrenHtml }} />
      <div dangerouslySetInnerHTML={{ __html: childrenHtml }} />
    </div>
  );
}
