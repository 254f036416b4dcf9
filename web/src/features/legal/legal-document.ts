/** A legal text: English only (spec section 1), rendered by components/legal-document-view.tsx. */
export interface LegalDocument {
  title: string;
  /** e.g. "Effective April 17, 2025". */
  dateLine: string;
  intro: string;
  sections: { heading: string; paragraphs: string[] }[];
}
