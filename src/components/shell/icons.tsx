import type { ReactNode } from "react";

/*
 * Inline stroke icons (a few hundred bytes in all) instead of an icon library. Decorative only:
 * every control that uses one carries its own accessible name.
 */
function Icon({ children, size = 20 }: { children: ReactNode; size?: number }) {
  return (
    <svg
      viewBox="0 0 24 24"
      width={size}
      height={size}
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {children}
    </svg>
  );
}

export const ChevronIcon = () => (
  <Icon size={16}>
    <path d="m6 9 6 6 6-6" />
  </Icon>
);

export const MenuIcon = ({ open }: { open: boolean }) => (
  <Icon size={24}>
    <path d={open ? "M6 6l12 12M18 6 6 18" : "M4 6h16M4 12h16M4 18h16"} />
  </Icon>
);

export const ArrowUpIcon = () => (
  <Icon size={24}>
    <path d="M12 19V5M5 12l7-7 7 7" />
  </Icon>
);

export const ChatIcon = () => (
  <Icon size={24}>
    <path d="M3 21l1.7-5A9 9 0 1 1 8 19.4z" />
    <path d="M9 9.5c.5 2.5 2.5 4.5 5 5l1-1.5-2-1-1 1c-.8-.4-1.6-1.2-2-2l1-1-1-2z" />
  </Icon>
);

const socialPaths: Record<string, ReactNode> = {
  facebook: <path d="M18 2h-3a5 5 0 0 0-5 5v3H7v4h3v8h4v-8h3l1-4h-4V7a1 1 0 0 1 1-1h3z" />,
  instagram: (
    <>
      <rect x="2" y="2" width="20" height="20" rx="5" />
      <circle cx="12" cy="12" r="4" />
      <path d="M17.5 6.5h.01" />
    </>
  ),
  linkedin: (
    <>
      <path d="M16 8a6 6 0 0 1 6 6v7h-4v-7a2 2 0 0 0-4 0v7h-4v-7a6 6 0 0 1 6-6zM2 9h4v12H2z" />
      <circle cx="4" cy="4" r="2" />
    </>
  ),
};

/** Icon for a social network by its name in site.yaml; none for a network we have no icon for. */
export function SocialIcon({ name }: { name: string }) {
  const paths = socialPaths[name.toLowerCase()];
  return paths ? <Icon size={20}>{paths}</Icon> : null;
}
