// Pictures open full size, as in Discord: a click (a tap on a phone) on a message's picture (an
// attached image, an embed's image or thumbnail, a media gallery or section thumbnail) shows it
// over the page, fitted to the screen. A click on the picture shows it at its own size (scroll to
// read every part of a board on a phone) and back; Esc, ✕ or a click beside it closes it. "Open
// original" opens the file in a new tab, as the picture's link did before.

const PICTURES = '.attachment-image img, .embed-image, .embed-thumb, .c-thumb, .c-gallery img';

/** Makes every picture in `list` (the message list) open in the lightbox. */
export function installLightbox(list) {
  list.addEventListener('click', (e) => {
    const img = e.target.closest(PICTURES);
    if (!img || !img.getAttribute('src')) return;
    e.preventDefault(); // an attachment's picture is a link to the file: the lightbox replaces it
    openLightbox(img);
  });
}

function openLightbox(img) {
  document.querySelector('dialog.lightbox')?.remove();
  const src = img.currentSrc || img.src;
  const dialog = document.createElement('dialog');
  dialog.className = 'lightbox';
  dialog.setAttribute('aria-label', img.alt ? `Picture: ${img.alt}` : 'Picture');
  dialog.innerHTML = `<div class="lightbox-bar"><a class="lightbox-original" target="_blank" rel="noopener noreferrer">Open original</a><span class="lightbox-size"></span><button type="button" class="lightbox-close" aria-label="Close" title="Close (Esc)">✕</button></div>
<div class="lightbox-stage"><img class="lightbox-img" title="Click to see it at full size"></div>`;
  const full = dialog.querySelector('.lightbox-img');
  full.src = src;
  full.alt = img.alt;
  dialog.querySelector('.lightbox-original').href = src;
  const stage = dialog.querySelector('.lightbox-stage');
  const size = dialog.querySelector('.lightbox-size');
  const label = () => {
    if (!full.naturalWidth) return;
    const fits = full.naturalWidth <= stage.clientWidth && full.naturalHeight <= stage.clientHeight;
    size.textContent = `${full.naturalWidth} × ${full.naturalHeight}${fits ? '' : dialog.classList.contains('is-zoomed') ? ' · actual size' : ' · fitted: click to zoom'}`;
    full.title = fits ? '' : dialog.classList.contains('is-zoomed') ? 'Click to fit it to the screen' : 'Click to see it at full size';
  };
  full.addEventListener('load', label);
  dialog.addEventListener('click', (e) => {
    if (e.target === full) {
      dialog.classList.toggle('is-zoomed');
      label();
    } else if (e.target.closest('.lightbox-close') || e.target === stage || e.target === dialog) dialog.close();
  });
  dialog.addEventListener('close', () => dialog.remove());
  document.body.appendChild(dialog);
  dialog.showModal();
  dialog.querySelector('.lightbox-close').focus();
  label();
}
