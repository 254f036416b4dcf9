import type { LegalDocument } from '../legal-document';

/** A legal text; `lang="en"` because these documents are English on every page. */
export function LegalDocumentView({ document, englishOnlyNote }: { document: LegalDocument; englishOnlyNote: string }) {
  return (
    <article className="legal container container--narrow" lang="en">
      <header className="legal__header">
        <h1 className="legal__title">{document.title}</h1>
        <p className="legal__date">{document.dateLine}</p>
        <p className="legal__note">{englishOnlyNote}</p>
      </header>
      <p className="legal__intro">{document.intro}</p>
      {document.sections.map((section) => (
        <section key={section.heading} className="legal__section">
          <h2>{section.heading}</h2>
          {section.paragraphs.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
        </section>
      ))}
    </article>
  );
}
