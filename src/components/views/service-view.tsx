import { Picture } from "../content/picture";
import type { GalleryItem, ServiceContent, ServiceSection } from "../../types/content";
import { BackLink } from "../content/back-link";
import { Banner } from "../content/banner";
import { Container } from "../content/page";
import { BulletList, Paragraphs } from "../content/text";
import * as styles from "./service-view.module.css";

export interface ServiceViewProps {
  service: ServiceContent;
  backLabel: string;
}

/** A service detail page: banner, title, text and lists, optional captioned images, Back to /services. */
export function ServiceView({ service, backLabel }: ServiceViewProps) {
  return (
    <article>
      <Banner {...service.banner} />
      <Container>
        <div className={styles.body}>
          <h1>{service.title}</h1>
          <Paragraphs items={service.intro} />
          {service.sections.map((section, i) => (
            <ServiceSectionBlock key={section.heading ?? i} section={section} />
          ))}
          {service.gallery.length > 0 && <Gallery items={service.gallery} />}
          <p className={styles.back}>
            <BackLink label={backLabel} />
          </p>
        </div>
      </Container>
    </article>
  );
}

function ServiceSectionBlock({ section }: { section: ServiceSection }) {
  return (
    <section className={styles.section}>
      {section.heading && <h2>{section.heading}</h2>}
      <Paragraphs items={section.paragraphs} />
      <BulletList items={section.items} columns={section.columns} />
      {section.subsections?.map((sub) => (
        <div key={sub.heading} className={styles.subsection}>
          <h3>{sub.heading}</h3>
          <Paragraphs items={sub.paragraphs} />
          <BulletList items={sub.items} />
        </div>
      ))}
    </section>
  );
}

/** The captioned approvals of a service page (also the studio's preview of an approval). */
export function Gallery({ items }: { items: readonly GalleryItem[] }) {
  return (
    <ul className={styles.gallery}>
      {items.map((item) => (
        <li key={item.caption}>
          <figure className={styles.figure}>
            <Picture image={item.image} alt={item.alt} className={styles.figureImage} />
            <figcaption>{item.caption}</figcaption>
          </figure>
        </li>
      ))}
    </ul>
  );
}
