// Panel: a heading over server-rendered children it does not own.
export default function Panel({ title, childrenHtml = '' }) {
  return (
    <section className="panel" aria-label={title}>
      <h2 className="panel__title">{title}</h2>
      <div className="panel__body" data-sg-children="" dangerouslySetInnerHTML={{ __html: childrenHtml }} />
    </section>
  );
}
