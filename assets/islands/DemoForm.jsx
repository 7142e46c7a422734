import { useEffect, useRef, useState } from 'react';
import { cx, useEnhanced } from './lib/hooks.js';

// DemoForm: the demo request form (anchor #demo-form).
// Its fields, limits and consents come from the site's form definition, the
// same one the build exports as the handler's schema (pkg/forms); the build
// fails when this markup and the schema disagree.
// Without JS it is a plain POST form to `endpoint` (the handler answers 303
// to the thank-you page, or 422 with its own page). Hydrated it validates on
// the client, posts JSON with fetch (201 with an id, or 422 with an error code
// per field) and shows each code's localized message from `messages` next to
// its field, with focus on the first.
// The page's own part, the hidden field with its URL, comes as children
// (childrenHtml, rendered by templates/sections/form.html), so the server
// renders this component once per locale, not once per page.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[0-9][0-9 ()-]{5,19}$/;

const fieldId = (name) => `demo-form-${name}`;
const errorId = (name) => `demo-form-${name}-error`;

// The error codes are the handler's: required, email, phone, consent,
// tooLong, invalid.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/;

function validate(form, fields, consents) {
  const errors = {};
  for (const f of fields) {
    const el = form.elements.namedItem(f.name);
    const v = el && typeof el.value === 'string' ? el.value.trim() : '';
    if (!v) {
      if (f.required) errors[f.name] = 'required';
      continue;
    }
    if (CONTROL.test(v)) errors[f.name] = 'invalid';
    else if (f.maxLength && [...v].length > f.maxLength) errors[f.name] = 'tooLong';
    else if (f.type === 'email' && !EMAIL.test(v)) errors[f.name] = 'email';
    else if (f.type === 'tel' && !PHONE.test(v)) errors[f.name] = 'phone';
  }
  for (const c of consents) {
    const el = form.elements.namedItem(c.name);
    if (c.required && !(el && el.checked)) errors[c.name] = 'consent';
  }
  return errors;
}

// message is the localized text of an error code for a field.
function message(messages, code, field) {
  const m = messages[code] || messages.invalid || messages.error || '';
  return field && field.maxLength ? m.replace('{max}', String(field.maxLength)) : m;
}

// newKey is the idempotency key of one filled-in form: a retried post is
// stored once.
function newKey() {
  const c = typeof crypto !== 'undefined' ? crypto : null;
  if (c && c.randomUUID) return c.randomUUID();
  const b = new Uint8Array(16);
  if (c && c.getRandomValues) c.getRandomValues(b);
  else for (let i = 0; i < b.length; i++) b[i] = Math.floor(Math.random() * 256);
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

function formJSON(form) {
  const data = {};
  new FormData(form).forEach((v, k) => {
    data[k] = typeof v === 'string' ? v : '';
  });
  return data;
}

function Required() {
  return (
    <span className="demo-form__required" aria-hidden="true">
      {' *'}
    </span>
  );
}

function ErrorText({ name, error }) {
  if (!error) return null;
  return (
    <p className="demo-form__error" id={errorId(name)} data-code={error.code}>
      {error.text}
    </p>
  );
}

export default function DemoForm({ endpoint, lang = '', thanksUrl = '', form = {}, messages = {}, childrenHtml = '' }) {
  const enhanced = useEnhanced();
  const ref = useRef(null);
  const [key, setKey] = useState('');
  useEffect(() => setKey(newKey()), []);
  // errors: field name -> {code, text}
  const [errors, setErrors] = useState({});
  const [status, setStatus] = useState({ kind: '', text: '' });
  const [sending, setSending] = useState(false);
  const fields = form.fields || [];
  const consents = form.consents || [];
  const byName = {};
  for (const f of fields) byName[f.name] = f;
  const explain = (codes) => {
    const out = {};
    for (const [name, code] of Object.entries(codes)) out[name] = { code, text: message(messages, code, byName[name]) };
    return out;
  };

  // Re-validate a field the user is correcting.
  const revalidate = (name) => {
    if (!errors[name] || !ref.current) return;
    const next = explain(validate(ref.current, fields, consents));
    setErrors((prev) => {
      const e = { ...prev };
      if (next[name]) e[name] = next[name];
      else delete e[name];
      return e;
    });
  };

  const onSubmit = async (ev) => {
    const el = ref.current;
    if (!el) return;
    ev.preventDefault();
    if (sending) return;
    const errs = explain(validate(el, fields, consents));
    setErrors(errs);
    const names = [...fields.map((f) => f.name), ...consents.map((c) => c.name)];
    const first = names.find((n) => errs[n]);
    if (first) {
      setStatus({ kind: 'error', text: errs[first].text });
      const input = el.elements.namedItem(first);
      if (input && input.focus) input.focus();
      return;
    }
    setSending(true);
    setStatus({ kind: 'sending', text: messages.sending || '' });
    try {
      const res = await fetch(endpoint, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify(formJSON(el)),
        credentials: 'same-origin',
      });
      let body = null;
      try {
        body = await res.json();
      } catch (e) {
        body = null;
      }
      if (res.ok && !(body && body.ok === false)) {
        setStatus({ kind: 'success', text: messages.success || '' });
        window.location.assign((body && body.redirect) || thanksUrl);
        return;
      }
      // Field errors from the server: 422 {errors: {field: code}}.
      const codes = res.status === 422 && body && body.errors && typeof body.errors === 'object' ? body.errors : null;
      const f = codes && names.find((n) => codes[n]);
      if (f) {
        const serverErrors = explain(codes);
        setErrors(serverErrors);
        setStatus({ kind: 'error', text: serverErrors[f].text });
        const input = el.elements.namedItem(f);
        if (input && input.focus) input.focus();
        return;
      }
      setStatus({ kind: 'error', text: messages.error || '' });
    } catch (e) {
      setStatus({ kind: 'error', text: messages.error || '' });
    } finally {
      setSending(false);
    }
  };

  return (
    <form
      id="demo-form"
      className={cx('demo-form', sending && 'demo-form--sending')}
      method="post"
      action={endpoint}
      noValidate={enhanced}
      onSubmit={onSubmit}
      ref={ref}
      aria-labelledby={form.title ? 'demo-form-title' : undefined}
      aria-busy={sending ? 'true' : undefined}
    >
      {form.title && (
        <h2 className="demo-form__title" id="demo-form-title">
          {form.title}
        </h2>
      )}
      {form.introHtml && <div className="demo-form__intro" dangerouslySetInnerHTML={{ __html: form.introHtml }} />}
      <input type="hidden" name="lang" value={lang} />
      <div hidden data-sg-children="" dangerouslySetInnerHTML={{ __html: childrenHtml }} />
      <input type="hidden" name="idempotencyKey" value={key} />
      <div className="demo-form__fields">
        {fields.map((f) => (
          <div key={f.name} className={cx('demo-form__field', errors[f.name] && 'demo-form__field--invalid')}>
            <label className="demo-form__label" htmlFor={fieldId(f.name)}>
              {f.label}
              {f.required && <Required />}
            </label>
            <input
              className="demo-form__input"
              id={fieldId(f.name)}
              name={f.name}
              type={f.type || 'text'}
              autoComplete={f.autocomplete || undefined}
              required={Boolean(f.required)}
              maxLength={f.maxLength || undefined}
              aria-invalid={errors[f.name] ? 'true' : undefined}
              aria-describedby={errors[f.name] ? errorId(f.name) : undefined}
              onInput={() => revalidate(f.name)}
            />
            <ErrorText name={f.name} error={errors[f.name]} />
          </div>
        ))}
      </div>
      <div className="demo-form__honeypot" aria-hidden="true">
        <label htmlFor="demo-form-website">{form.honeypotLabel || "website"}</label>
        <input id="demo-form-website" type="text" name="website" tabIndex={-1} autoComplete="off" />
      </div>
      <div className="demo-form__consents">
        {consents.map((c) => (
          <div key={c.name} className={cx('demo-form__consent', errors[c.name] && 'demo-form__consent--invalid')}>
            <input
              className="demo-form__checkbox"
              id={fieldId(c.name)}
              type="checkbox"
              name={c.name}
              value="yes"
              required={Boolean(c.required)}
              aria-invalid={errors[c.name] ? 'true' : undefined}
              aria-describedby={errors[c.name] ? errorId(c.name) : undefined}
              onChange={() => revalidate(c.name)}
            />
            <label className="demo-form__consent-label" htmlFor={fieldId(c.name)}>
              <span dangerouslySetInnerHTML={{ __html: c.html || '' }} />
              {c.required && <Required />}
            </label>
            <ErrorText name={c.name} error={errors[c.name]} />
          </div>
        ))}
      </div>
      {form.clauseHtml && <div className="demo-form__clause" dangerouslySetInnerHTML={{ __html: form.clauseHtml }} />}
      <p
        className={cx('demo-form__status', status.kind && `demo-form__status--${status.kind}`)}
        role="status"
        aria-live="polite"
      >
        {status.text}
      </p>
      <button type="submit" className="demo-form__submit" aria-disabled={sending ? 'true' : undefined}>
        {sending && messages.sending ? messages.sending : form.submit}
      </button>
    </form>
  );
}
