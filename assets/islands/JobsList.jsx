import { useEffect, useRef, useState } from 'react';
import { cx, useEnhanced } from './lib/hooks.js';

// JobsList: job offers. Without JS every job is a <details> with its full
// description and apply link. Hydrated it shows a list; "details" opens one
// job (location.hash #job-<id>, a history entry, so the back button returns
// to the list) and "back" returns to the list.
// Props: jobs [{id, title, location, employment, summaryHtml, responsibilities[],
// requirements[], offer[], applyEmail}], labels {details, back, apply,
// responsibilities, requirements, offer, empty}.
const HASH = 'job-';

function jobFromHash(jobs) {
  if (typeof window === 'undefined') return null;
  const h = decodeURIComponent(window.location.hash.slice(1));
  if (!h.startsWith(HASH)) return null;
  const id = h.slice(HASH.length);
  return jobs.some((j) => j.id === id) ? id : null;
}

function mailto(job) {
  return `mailto:${job.applyEmail}?subject=${encodeURIComponent(job.title)}`;
}

// Meta is a <p>, or a <span> inside <summary>, which admits only phrasing
// content and headings.
function Meta({ job, inline }) {
  const Tag = inline ? 'span' : 'p';
  return (
    <Tag className="jobs-list__meta">
      <span className="jobs-list__location">{job.location}</span>
      {job.location && job.employment ? ' · ' : ''}
      <span className="jobs-list__employment">{job.employment}</span>
    </Tag>
  );
}

function Section({ title, items, mod }) {
  if (!items || !items.length) return null;
  return (
    <section className={`jobs-list__section jobs-list__section--${mod}`}>
      <h4 className="jobs-list__section-title">{title}</h4>
      <ul className="jobs-list__bullets">
        {items.map((it, i) => (
          <li key={i}>{it}</li>
        ))}
      </ul>
    </section>
  );
}

function Description({ job, labels }) {
  return (
    <>
      {job.summaryHtml && <div className="jobs-list__summary-text" dangerouslySetInnerHTML={{ __html: job.summaryHtml }} />}
      <Section title={labels.responsibilities} items={job.responsibilities} mod="responsibilities" />
      <Section title={labels.requirements} items={job.requirements} mod="requirements" />
      <Section title={labels.offer} items={job.offer} mod="offer" />
      {job.applyEmail && (
        <p className="jobs-list__apply">
          <a className="jobs-list__apply-link" href={mailto(job)}>
            {labels.apply}
          </a>
        </p>
      )}
    </>
  );
}

export default function JobsList({ jobs = [], labels = {} }) {
  const enhanced = useEnhanced();
  const [selected, setSelected] = useState(null);
  const headingRef = useRef(null);
  const linkRefs = useRef({});
  const returnTo = useRef(null);

  useEffect(() => {
    const sync = () => setSelected(jobFromHash(jobs));
    sync();
    window.addEventListener('popstate', sync);
    window.addEventListener('hashchange', sync);
    return () => {
      window.removeEventListener('popstate', sync);
      window.removeEventListener('hashchange', sync);
    };
  }, [jobs]);

  // Move focus with the view: to the job's heading, or back to its link.
  useEffect(() => {
    if (!enhanced) return;
    if (selected && headingRef.current) headingRef.current.focus();
    else if (!selected && returnTo.current && linkRefs.current[returnTo.current]) {
      linkRefs.current[returnTo.current].focus();
      returnTo.current = null;
    }
  }, [enhanced, selected]);

  const open = (ev, id) => {
    ev.preventDefault();
    window.history.pushState({ sgJob: id }, '', `#${HASH}${encodeURIComponent(id)}`);
    setSelected(id);
  };

  const back = (ev) => {
    ev.preventDefault();
    returnTo.current = selected;
    if (window.history.state && window.history.state.sgJob) {
      window.history.back(); // popstate brings the list back
      return;
    }
    window.history.pushState(null, '', window.location.pathname + window.location.search);
    setSelected(null);
  };

  if (!jobs.length) {
    return (
      <div className="jobs-list jobs-list--empty">
        <p className="jobs-list__empty">{labels.empty}</p>
      </div>
    );
  }

  if (!enhanced) {
    return (
      <div className="jobs-list">
        {jobs.map((job) => (
          <details key={job.id} className="jobs-list__job" id={`${HASH}${job.id}`}>
            <summary className="jobs-list__summary">
              <h3 className="jobs-list__title">{job.title}</h3>
              <Meta job={job} inline />
            </summary>
            <div className="jobs-list__body">
              <Description job={job} labels={labels} />
            </div>
          </details>
        ))}
      </div>
    );
  }

  const job = selected && jobs.find((j) => j.id === selected);
  if (job) {
    return (
      <div className="jobs-list jobs-list--detail">
        <article className="jobs-list__detail" id={`${HASH}${job.id}`} aria-labelledby={`${HASH}${job.id}-title`}>
          <p className="jobs-list__back">
            <a className="jobs-list__back-link" href="#" onClick={back}>
              {labels.back}
            </a>
          </p>
          <h3 className="jobs-list__title" id={`${HASH}${job.id}-title`} tabIndex={-1} ref={headingRef}>
            {job.title}
          </h3>
          <Meta job={job} />
          <Description job={job} labels={labels} />
        </article>
      </div>
    );
  }

  return (
    <div className="jobs-list jobs-list--list">
      <ul className="jobs-list__items">
        {jobs.map((j) => (
          <li key={j.id} className={cx('jobs-list__item')}>
            <h3 className="jobs-list__title">{j.title}</h3>
            <Meta job={j} />
            {j.summaryHtml && <div className="jobs-list__summary-text" dangerouslySetInnerHTML={{ __html: j.summaryHtml }} />}
            <a
              className="jobs-list__details"
              href={`#${HASH}${j.id}`}
              ref={(el) => {
                linkRefs.current[j.id] = el;
              }}
              onClick={(ev) => open(ev, j.id)}
              aria-label={`${labels.details}: ${j.title}`}
            >
              {labels.details}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
