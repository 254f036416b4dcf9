// The error screen for any fatal or unhandled error (spec section 2): a dark page with a looping animation, the
// heading 404, one line and a 'Take me Home' button to /. Texts come translated when they are loaded; the English
// originals otherwise, since this screen must show even when loading the translations is what failed.
export interface ErrorScreenTexts {
  heading: string;
  line: string;
  home: string;
}

export const englishErrorScreen: ErrorScreenTexts = { heading: '404', line: 'Get lost? How? Why? ahhhh.....', home: 'Take me Home' };

export function ErrorScreen({ texts = englishErrorScreen }: { texts?: Partial<ErrorScreenTexts> }) {
  const { heading, line, home } = { ...englishErrorScreen, ...texts };
  return (
    <main className="error-screen">
      <div className="error-screen__orbit" aria-hidden="true">
        <span className="error-screen__planet" />
        <span className="error-screen__moon" />
      </div>
      <h1 className="error-screen__heading">{heading}</h1>
      <p className="error-screen__line">{line}</p>
      <a href="/" className="button button--primary button--large">
        {home}
      </a>
    </main>
  );
}
