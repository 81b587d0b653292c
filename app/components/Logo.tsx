/** The Dossard mark: a race bib with its safety pins. Decorative; the text beside it names the site. */
export function Logo({ className = "h-8 w-8" }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={className} aria-hidden="true" focusable="false">
      <rect x="3" y="6" width="26" height="20" rx="3" fill="#f05a1a" />
      <rect x="7" y="11" width="18" height="10" rx="1.5" fill="#fff" />
      <circle cx="6.5" cy="9.5" r="1.3" fill="#fff" />
      <circle cx="25.5" cy="9.5" r="1.3" fill="#fff" />
      <circle cx="6.5" cy="22.5" r="1.3" fill="#fff" />
      <circle cx="25.5" cy="22.5" r="1.3" fill="#fff" />
      <path d="M12 13.5h4.2a2.5 2.5 0 0 1 0 5H12z" fill="none" stroke="#132238" strokeWidth="1.8" />
    </svg>
  );
}
