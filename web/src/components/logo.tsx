/** The Loopcast mark: a play triangle inside a loop, with the word mark. */
export function Logo({ label }: { label: string }) {
  return (
    <span className="logo">
      <svg className="logo__mark" viewBox="0 0 32 32" aria-hidden="true">
        <defs>
          <linearGradient id="logo-gradient" x1="0" y1="0" x2="1" y2="1">
            <stop offset="0" stopColor="#8b5cf6" />
            <stop offset="1" stopColor="#ec4899" />
          </linearGradient>
        </defs>
        <rect width="32" height="32" rx="9" fill="url(#logo-gradient)" />
        <path d="M22.5 10.5a8 8 0 1 0 1.4 7" fill="none" stroke="#fff" strokeWidth="2.6" strokeLinecap="round" />
        <path d="M24.5 6.8v5.4h-5.4" fill="none" stroke="#fff" strokeWidth="2.6" strokeLinecap="round" strokeLinejoin="round" />
        <path d="M13.6 12.4v7.2l6-3.6z" fill="#fff" />
      </svg>
      <span className="logo__word">{label}</span>
    </span>
  );
}
