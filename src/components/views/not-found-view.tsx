import { Link } from "gatsby";
import { Container, Section } from "../content/page";

export interface NotFoundViewProps {
  heading: string;
  text: string;
  links: ReadonlyArray<{ label: string; to: string }>;
}

export function NotFoundView({ heading, text, links }: NotFoundViewProps) {
  return (
    <Section>
      <Container>
        <h1>{heading}</h1>
        <p>{text}</p>
        <ul>
          {links.map((link) => (
            <li key={link.to}>
              <Link to={link.to}>{link.label}</Link>
            </li>
          ))}
        </ul>
      </Container>
    </Section>
  );
}
