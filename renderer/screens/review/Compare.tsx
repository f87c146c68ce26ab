import { useRef } from 'react';
import { useActions, useApp } from '../../store/context';
import { useT } from '../../i18n';

function Img({ url, alt }: { url: string | null | undefined; alt: string }) {
  const t = useT('review');
  if (url === undefined || url === null) return <div className="img-missing" role="img" aria-label={t('Compare.missingLabel', { alt })}>{url === null ? t('Compare.loading') : t('Compare.noPreview')}</div>;
  return <img src={url} alt={alt} draggable={false} />;
}

/** Before/after, as a draggable (and keyboard) slider or side by side, at 1×, 2× or 4×. */
export function Compare({ beforeUrl, afterUrl, name }: { beforeUrl: string | null | undefined; afterUrl: string | null | undefined; name: string }) {
  const mode = useApp((s) => s.compareMode);
  const zoom = useApp((s) => s.zoom);
  const position = useApp((s) => s.sliderPosition);
  const { setSliderPosition } = useActions();
  const t = useT('review');
  const beforeAlt = t('Compare.beforeAlt', { name });
  const afterAlt = t('Compare.afterAlt', { name });
  const frame = useRef<HTMLDivElement>(null);
  const dragging = useRef(false);

  const moveTo = (clientX: number) => {
    const rect = frame.current?.getBoundingClientRect();
    if (!rect || rect.width === 0) return;
    setSliderPosition(((clientX - rect.left) / rect.width) * 100);
  };

  const onKeyDown = (e: React.KeyboardEvent) => {
    const step = e.shiftKey ? 10 : 2;
    const next = { ArrowLeft: position - step, ArrowRight: position + step, Home: 0, End: 100 }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    e.stopPropagation(); // the arrows move the divider here, not to the next photo
    setSliderPosition(next);
  };

  if (mode === 'side') {
    return (
      <div className="compare-side">
        <figure><div className="compare-scroll"><div style={{ zoom }}><Img url={beforeUrl} alt={beforeAlt} /></div></div><figcaption>{t('Compare.before')}</figcaption></figure>
        <figure><div className="compare-scroll"><div style={{ zoom }}><Img url={afterUrl} alt={afterAlt} /></div></div><figcaption>{t('Compare.after')}</figcaption></figure>
      </div>
    );
  }
  return (
    <div className="compare-scroll">
      <div
        ref={frame}
        className="compare-slider"
        // CSS zoom scales the frame and its limits together, so 2× and 4× simply scroll inside the viewer. The labels
        // and the divider undo it (`--zoom` in screens.css): they are controls, kept at screen size over the photo.
        style={{ zoom, '--zoom': zoom } as React.CSSProperties}
        onPointerDown={(e) => {
          dragging.current = true;
          e.currentTarget.setPointerCapture?.(e.pointerId);
          moveTo(e.clientX);
        }}
        onPointerMove={(e) => dragging.current && moveTo(e.clientX)}
        onPointerUp={() => (dragging.current = false)}
        onPointerCancel={() => (dragging.current = false)}
      >
        <div className="compare-layer"><Img url={afterUrl} alt={afterAlt} /></div>
        <div className="compare-layer compare-before" style={{ clipPath: `inset(0 ${100 - position}% 0 0)` }}>
          <Img url={beforeUrl} alt={beforeAlt} />
        </div>
        <span className="compare-tag compare-tag-before" aria-hidden="true">{t('Compare.before')}</span>
        <span className="compare-tag compare-tag-after" aria-hidden="true">{t('Compare.after')}</span>
        <div
          className="compare-handle"
          style={{ left: `${position}%` }}
          role="slider"
          tabIndex={0}
          aria-label={t('Compare.divider')}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={position}
          aria-valuetext={t('Compare.dividerValue', { position })}
          onKeyDown={onKeyDown}
        >
          <span className="compare-knob" aria-hidden="true">⟷</span>
        </div>
      </div>
    </div>
  );
}
