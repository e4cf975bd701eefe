import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { AboutView } from "../../src/components/views/about-view";
import { ActivitiesView } from "../../src/components/views/activities-view";
import { ContactView, type ContactViewProps } from "../../src/components/views/contact-view";
import { HomeView } from "../../src/components/views/home-view";
import { NotFoundView } from "../../src/components/views/not-found-view";
import { ServicesIndexView } from "../../src/components/views/services-index-view";
import { WhyCyrusView } from "../../src/components/views/why-cyrus-view";
import { content, fakeImage, loadShellData } from "../support/content";

const withImage = (alt: string, name = alt) => ({ image: fakeImage(1200, 800, name.replace(/\W+/g, "-")), alt });
const carouselLabels = { pause: "Pause slideshow", play: "Play slideshow", slideOf: "{n} of {total}" };

test("home: the carousel of its slides, introduction and the founder's message naming the industries", () => {
  const { home } = content;
  render(<HomeView {...home} carouselLabels={carouselLabels} slides={home.slides.map((s) => withImage(s.alt))} />);
  const carousel = screen.getByRole("region", { name: home.carouselLabel });
  expect(within(carousel).getAllByRole("group", { hidden: true })).toHaveLength(home.slides.length);
  expect(screen.getByRole("heading", { level: 1, name: home.heading })).toBeInTheDocument();
  expect(screen.getByRole("heading", { name: home.intro.heading })).toBeInTheDocument();
  const founder = screen.getByRole("region", { name: "Message from the Founder and Managing Director" });
  expect(
    within(founder)
      .getAllByRole("listitem")
      .map((li) => li.textContent),
  ).toEqual(home.founder.industries);
});

test("about: mission card, vision card and the data management / eCRF overview", () => {
  const { about } = content;
  render(<AboutView {...about} banner={withImage(about.bannerAlt)} />);
  expect(screen.getByRole("heading", { level: 1, name: about.heading })).toBeInTheDocument();
  expect(screen.getByRole("heading", { name: about.mission.heading }).nextElementSibling).toHaveTextContent(
    about.mission.text,
  );
  expect(screen.getByRole("heading", { name: about.vision.heading }).nextElementSibling).toHaveTextContent(
    about.vision.text,
  );
  expect(screen.getByRole("heading", { name: about.overview.heading }).textContent).toMatch(
    /eCRF|electronic case report/i,
  );
});

test("services index: intro, bullet columns and a card per service with title, link and image in card order", () => {
  const { servicesPage: page, services } = content;
  const cards = services.map((s) => ({
    title: s.cardTitle,
    to: `/services/${s.slug}`,
    image: withImage(s.cardImageAlt, s.slug),
  }));
  const { container } = render(<ServicesIndexView {...page} banner={withImage(page.bannerAlt)} cards={cards} />);
  expect(container.querySelectorAll("[data-columns]")).toHaveLength(page.columns.length);
  const grid = screen.getByRole("region", { name: page.gridHeading });
  const links = within(grid).getAllByRole("link");
  expect(links.map((a) => a.getAttribute("href"))).toEqual(services.map((s) => `/services/${s.slug}`));
  expect(links.map((a) => a.textContent)).toEqual(services.map((s) => s.cardTitle));
  expect(
    within(grid)
      .getAllByRole("img")
      .map((img) => img.getAttribute("alt")),
  ).toEqual(services.map((s) => s.cardImageAlt));
});

test("activities: its sections, each a bullet list with an image, and no Back button", () => {
  const page = content.activities;
  render(
    <ActivitiesView
      {...page}
      banner={withImage(page.bannerAlt)}
      sections={page.sections.map((s) => ({ ...s, image: withImage(s.alt) }))}
    />,
  );
  const headings = screen.getAllByRole("heading", { level: 2 });
  expect(headings.map((h) => h.textContent)).toEqual(page.sections.map((s) => s.heading));
  const items = headings.map((h) =>
    within(h.closest("section")!)
      .getAllByRole("listitem")
      .map((li) => li.textContent),
  );
  expect(items).toEqual(page.sections.map((s) => s.items));
  for (const h of headings) expect(within(h.closest("section")!).getByRole("img")).toBeInTheDocument();
  expect(screen.queryByRole("link", { name: /back/i })).toBeNull();
});

test("why Cyrus: its cards, title first, description revealed by a tap", async () => {
  const page = content.whyCyrus;
  render(<WhyCyrusView {...page} />);
  const buttons = screen.getAllByRole("button");
  expect(buttons.map((b) => b.textContent)).toEqual(page.cards.map((c) => c.title));
  const first = buttons[0]!;
  expect(first).toHaveAttribute("aria-expanded", "false");
  // The description is in the HTML (for crawlers), tied to its button.
  const description = document.getElementById(first.getAttribute("aria-controls")!);
  expect(description).toHaveTextContent(page.cards[0]!.description);
  await userEvent.click(first);
  expect(first).toHaveAttribute("aria-expanded", "true");
  expect(first.closest("li")).toHaveAttribute("data-open", "true");
});

test("contact: company, slogan, address, phone, e-mail and website links, the enquiry form, map and region carousel", () => {
  const page = content.contact;
  const { site } = loadShellData();
  const props: ContactViewProps = {
    ...page,
    banner: withImage(page.bannerAlt),
    companyName: site.legalName,
    address: site.address,
    mobile: site.mobile,
    telephone: site.telephone,
    email: site.email,
    website: site.website,
    labels: site.labels,
    region: { ...page.region, slides: page.region.slides.map((s) => withImage(s.alt)) },
    carouselLabels,
  };
  render(<ContactView {...props} />);
  expect(screen.getByText(site.legalName)).toBeInTheDocument();
  expect(screen.getByText(page.slogan)).toBeInTheDocument();
  expect(screen.getByText(/600032/)).toHaveTextContent(/Chennai/);
  expect(screen.getByRole("link", { name: site.mobile })).toHaveAttribute(
    "href",
    `tel:${site.mobile.replace(/[^+\d]/g, "")}`,
  );
  expect(screen.getByRole("link", { name: site.telephone })).toHaveAttribute(
    "href",
    `tel:${site.telephone.replace(/[^+\d]/g, "")}`,
  );
  expect(screen.getByRole("link", { name: site.email })).toHaveAttribute("href", `mailto:${site.email}`);
  expect(screen.getByRole("link", { name: site.website.replace(/^https?:\/\//, "") })).toHaveAttribute(
    "href",
    site.website,
  );
  expect(screen.getByRole("heading", { name: "Request for Information" })).toBeInTheDocument();
  // The form sits in the "Request for Information" section (#enquiry), under the notice.
  const enquiry = screen.getByRole("region", { name: "Request for Information" });
  expect(enquiry).toHaveAttribute("id", "enquiry");
  const form = enquiry.querySelector("form")!;
  expect(form.noValidate).toBe(true);
  expect(within(form).getByLabelText("Name")).toBeRequired();
  expect(within(form).getByLabelText(/^Phone/)).not.toBeRequired();
  expect(within(form).getByLabelText("Email *")).toHaveAttribute("type", "email");
  expect(within(form).getByLabelText("Message")).toBeRequired();
  expect(within(form).getByRole("button", { name: page.form.submit })).toBeEnabled();
  expect(within(form).getByRole("status")).toBeEmptyDOMElement();
  // The notice on what the details are used for sits under the form (product notes).
  expect(within(enquiry).getByText(page.formNotice).compareDocumentPosition(form)).toBe(
    Node.DOCUMENT_POSITION_PRECEDING,
  );
  expect(screen.getByTitle("Our Location").tagName).toBe("IFRAME");
  expect(screen.getByRole("heading", { name: "Discover Our Region" })).toBeInTheDocument();
  const carousel = screen.getByRole("region", { name: page.region.carouselLabel });
  expect(within(carousel).getAllByRole("group", { hidden: true })).toHaveLength(page.region.slides.length);
});

test("404: heading, text and its links", () => {
  const page = content.notFound;
  render(<NotFoundView {...page} />);
  expect(screen.getByRole("heading", { level: 1, name: page.heading })).toBeInTheDocument();
  expect(screen.getAllByRole("link").map((a) => [a.textContent, a.getAttribute("href")])).toEqual(
    page.links.map((link) => [link.label, link.to]),
  );
});
