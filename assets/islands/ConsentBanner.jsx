import { useEffect, useRef, useState } from 'react';
import { cx } from './lib/hooks.js';

// ConsentBanner: the cookie/analytics consent banner. SSR renders it hidden;
// hydrated it shows when no choice is stored in localStorage ("sg-consent"),
// stores "accept" or "reject", dispatches a `sg:consent` CustomEvent on window
// (detail: {choice, stored}) and reopens on a `sg:consent-open` event.
// Props: title, textHtml, accept, reject, settingsLabel, policyUrl.
const KEY = 'sg-consent';

function readChoice() {
  try {
    const v = window.localStorage.getItem(KEY);
    return v === 'accept' || v === 'reject' ? v : null;
  } catch (e) {
    return null;
  }
}

function announce(choice, stored) {
  window.dispatchEvent(new CustomEvent('sg:consent', { detail: { choice, stored } }));
}

export default function ConsentBanner({ title, textHtml, accept, reject, settingsLabel, policyUrl }) {
  const [visible, setVisible] = useState(false);
  const [focusOnShow, setFocusOnShow] = useState(false);
  const acceptRef = useRef(null);

  useEffect(() => {
    const stored = readChoice();
    if (stored) announce(stored, true);
    else setVisible(true);
    const reopen = () => {
      setFocusOnShow(true);
      setVisible(true);
    };
    window.addEventListener('sg:consent-open', reopen);
    // Buttons marked data-consent-open (the footer's "Cookie settings") stay
    // hidden without JavaScript; once the banner can open, they show and open it.
    const openers = Array.from(document.querySelectorAll('[data-consent-open]'));
    const onOpen = (e) => {
      e.preventDefault();
      reopen();
    };
    openers.forEach((b) => {
      b.hidden = false;
      b.addEventListener('click', onOpen);
    });
    return () => {
      window.removeEventListener('sg:consent-open', reopen);
      openers.forEach((b) => b.removeEventListener('click', onOpen));
    };
  }, []);

  useEffect(() => {
    if (visible && focusOnShow && acceptRef.current) {
      acceptRef.current.focus();
      setFocusOnShow(false);
    }
  }, [visible, focusOnShow]);

  const choose = (choice) => {
    try {
      window.localStorage.setItem(KEY, choice);
    } catch (e) {
      // Storage unavailable: the choice holds for this page only.
    }
    setVisible(false);
    announce(choice, false);
  };

  return (
    <section
      className={cx('consent-banner', visible && 'consent-banner--visible')}
      aria-labelledby="consent-banner-title"
      hidden={!visible}
    >
      <h2 className="consent-banner__title" id="consent-banner-title">
        {title}
      </h2>
      {textHtml && <div className="consent-banner__text" dangerouslySetInnerHTML={{ __html: textHtml }} />}
      <div className="consent-banner__actions">
        <button type="button" className="consent-banner__button consent-banner__button--accept" ref={acceptRef} onClick={() => choose('accept')}>
          {accept}
        </button>
        <button type="button" className="consent-banner__button consent-banner__button--reject" onClick={() => choose('reject')}>
          {reject}
        </button>
        {policyUrl && settingsLabel && (
          <a className="consent-banner__link" href={policyUrl}>
            {settingsLabel}
          </a>
        )}
      </div>
    </section>
  );
}
