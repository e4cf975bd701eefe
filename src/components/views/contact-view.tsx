import type { Address, CarouselLabels, ImageWithAlt } from "../../types/content";
import { Carousel } from "../carousel/carousel";
import { Banner } from "../content/banner";
import { ContactList, PostalAddress } from "../content/contact-details";
import { Container, Section } from "../content/page";
import { EnquiryForm, type EnquiryFormText } from "../enquiry-form/enquiry-form";
import { MapFrame } from "./map-frame";
import * as cardStyles from "./card.module.css";
import * as styles from "./contact-view.module.css";

export interface ContactViewProps {
  heading: string;
  banner: ImageWithAlt;
  companyName: string;
  slogan: string;
  detailsHeading: string;
  address: Address;
  mobile: string;
  telephone: string;
  email: string;
  website: string;
  labels: { addressHeading: string; mobile: string; telephone: string; email: string; website: string };
  formHeading: string;
  formNotice: string;
  /** Wording of the enquiry form (data/contact/contact.yaml `form`). */
  form: EnquiryFormText;
  /** In the editing studio's preview: the form sends nothing and shows this note. */
  formPreviewNote?: string;
  map: { title: string; src: string; linkLabel: string; link: string };
  region: { heading: string; carouselLabel: string; slides: readonly ImageWithAlt[] };
  carouselLabels: CarouselLabels;
}

export function ContactView(props: ContactViewProps) {
  const { labels } = props;
  return (
    <>
      <Banner {...props.banner} />
      <Section>
        <Container wide>
          <h1>{props.heading}</h1>
          <div className={styles.contactGrid}>
            <section aria-labelledby="contact-details-heading" className={cardStyles.card}>
              <h2 id="contact-details-heading">{props.detailsHeading}</h2>
              <p className={styles.company}>{props.companyName}</p>
              <p className={styles.slogan}>{props.slogan}</p>
              <h3>{labels.addressHeading}</h3>
              <PostalAddress address={props.address} className={styles.address} />
              <ContactList
                labels={labels}
                mobile={props.mobile}
                telephone={props.telephone}
                email={props.email}
                website={props.website}
                className={styles.details}
              />
            </section>
            <section aria-labelledby="enquiry-heading" className={cardStyles.card} id="enquiry">
              <h2 id="enquiry-heading">{props.formHeading}</h2>
              <EnquiryForm text={props.form} previewNote={props.formPreviewNote} />
              <p className={styles.notice}>{props.formNotice}</p>
            </section>
          </div>
        </Container>
      </Section>
      <Section tone="alt" labelledBy="map-heading">
        <Container wide>
          <h2 id="map-heading">{props.map.title}</h2>
          <div className={styles.map}>
            <MapFrame title={props.map.title} src={props.map.src} />
          </div>
          <p>
            <a href={props.map.link}>{props.map.linkLabel}</a>
          </p>
        </Container>
      </Section>
      <Section>
        <Container wide>
          <h2 id="region-heading">{props.region.heading}</h2>
          <Carousel
            label={props.region.carouselLabel}
            slides={props.region.slides}
            labels={props.carouselLabels}
            lazy
          />
        </Container>
      </Section>
    </>
  );
}
