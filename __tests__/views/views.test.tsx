import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { AboutView } from "../../src/components/views/about-view";
import { ActivitiesView } from "../../src/components/views/activities-view";
import { ContactView, type ContactViewProps } from "../../src/components/views/contact-view";
import { HomeView } from "../../src/components/views/home-view";
import { NotFoundView } from "../../src/components/views/not-found-view";
import { ServicesIndexView } from "../../src/components/views/services-index-view";
import { WhyCyrusView } from "../../src/components/views/why-cyrus-view";
import { fakeImage, loadShellData, loadYaml } from "../support/content";
import { specCardRoutes } from "../support/routes";

/* eslint-disable @typescript-eslint/no-explicit-any -- YAML test data is checked by the assertions */
const yaml = (file: string): any => loadYaml(`data/${file}`);
const withImage = (alt: string, name = alt) => ({ image: fakeImage(1200, 800, name.replace(/\W+/g, "-")), alt });
const carouselLabels = { pause: "Pause slideshow", play: "Play slideshow", slideOf: "{n} of {total}" };

test("home: 4-slide carousel, introduction and the founder's message naming the four industries", () => {
  const home = yaml("home/home.yaml");
  render(<HomeView {...home} carouselLabels={carouselLabels} slides={home.slides.map((s: any) => withImage(s.alt))} />);
  const carousel = screen.getByRole("region", { name: home.carouselLabel });
  expect(within(carousel).getAllByRole("group", { hidden: true })).toHaveLength(4);
  expect(screen.getByRole("heading", { level: 1, name: home.heading })).toBeInTheDocument();
  expect(screen.getByRole("heading", { name: home.intro.heading })).toBeInTheDocument();
  const founder = screen.getByRole("region", { name: "Message from the Founder and Managing Director" });
  expect(
    within(founder)
      .getAllByRole("listitem")
      .map((li) => li.textContent),
  ).toEqual([
    "Pharmaceutical and Biopharmaceutical",
    "Agrochemical and Industrial Chemicals",
    "Herbal/Nutraceuticals",
    "Medical Devices",
  ]);
});

test("about: mission card, vision card and the data management / eCRF overview", () => {
  const about = yaml("about/about.yaml");
  render(<AboutView {...about} banner={withImage(about.bannerAlt)} />);
  expect(screen.getByRole("heading", { level: 1, name: about.heading })).toBeInTheDocument();
  expect(screen.getByRole("heading", { name: "Our Mission" }).nextElementSibling).toHaveTextContent(about.mission.text);
  expect(screen.getByRole("heading", { name: "Our Vision" }).nextElementSibling).toHaveTextContent(about.vision.text);
  expect(screen.getByRole("heading", { name: about.overview.heading }).textContent).toMatch(
    /eCRF|electronic case report/i,
  );
});

test("services index: intro, three bullet columns and 19 cards with title, link and image in card order", () => {
  const page = yaml("services-page/services-page.yaml");
  const services = yaml("services/services.yaml");
  const cards = services.map((s: any) => ({
    title: s.cardTitle,
    to: `/services/${s.slug}`,
    image: withImage(s.cardImageAlt, s.slug),
  }));
  const { container } = render(<ServicesIndexView {...page} banner={withImage(page.bannerAlt)} cards={cards} />);
  expect(container.querySelectorAll("[data-columns]")).toHaveLength(3);
  const grid = screen.getByRole("region", { name: page.gridHeading });
  const links = within(grid).getAllByRole("link");
  expect(links.map((a) => a.getAttribute("href"))).toEqual(specCardRoutes);
  expect(links.map((a) => a.textContent)).toEqual(
    expect.arrayContaining([
      "Clinical Operations",
      "Study Design & Management",
      "Phase II - Phase IV Clinical Trial Management",
    ]),
  );
  expect(within(grid).getAllByRole("img")).toHaveLength(19);
});

test("activities: six sections with 8, 7, 8, 7, 8 and 4 items, each with an image, and no Back button", () => {
  const page = yaml("activities/activities.yaml");
  render(
    <ActivitiesView
      {...page}
      banner={withImage(page.bannerAlt)}
      sections={page.sections.map((s: any) => ({ ...s, image: withImage(s.alt) }))}
    />,
  );
  const headings = screen.getAllByRole("heading", { level: 2 });
  expect(headings.map((h) => h.textContent)).toEqual([
    "Study Team for Biometrics",
    "Data Management",
    "QA & Finalization",
    "eCRF Documentation",
    "Data Entry & Verification",
    "Mock Runs & Audits",
  ]);
  const counts = headings.map((h) => within(h.closest("section")!).getAllByRole("listitem").length);
  expect(counts).toEqual([8, 7, 8, 7, 8, 4]);
  for (const h of headings) expect(within(h.closest("section")!).getByRole("img")).toBeInTheDocument();
  expect(screen.queryByRole("link", { name: /back/i })).toBeNull();
});

test("why Cyrus: seven cards, title first, description revealed by a tap", async () => {
  const page = yaml("why-cyrus/why-cyrus.yaml");
  render(<WhyCyrusView {...page} />);
  const buttons = screen.getAllByRole("button");
  expect(buttons.map((b) => b.textContent)).toEqual([
    "Expertise and Specialization",
    "Cost Efficiency",
    "Resource Optimization",
    "Speed and Timeliness",
    "Risk Mitigation",
    "Reduced Administrative Burden",
    "Confidentiality and Data Security",
  ]);
  const first = buttons[0]!;
  expect(first).toHaveAttribute("aria-expanded", "false");
  // The description is in the HTML (for crawlers), tied to its button.
  const description = document.getElementById(first.getAttribute("aria-controls")!);
  expect(description).toHaveTextContent(page.cards[0].description);
  await userEvent.click(first);
  expect(first).toHaveAttribute("aria-expanded", "true");
  expect(first.closest("li")).toHaveAttribute("data-open", "true");
});

test("contact: company, slogan, address, phone, e-mail and website links, the enquiry form, map and region carousel", () => {
  const page = yaml("contact/contact.yaml");
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
    region: { ...page.region, slides: page.region.slides.map((s: any) => withImage(s.alt)) },
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
  expect(within(carousel).getAllByRole("group", { hidden: true })).toHaveLength(4);
});

test("404: heading, text and links to Home, Services and Contact Us", () => {
  const page = yaml("not-found/not-found.yaml");
  render(<NotFoundView {...page} />);
  expect(screen.getByRole("heading", { level: 1, name: page.heading })).toBeInTheDocument();
  expect(screen.getAllByRole("link").map((a) => [a.textContent, a.getAttribute("href")])).toEqual([
    ["Home", "/home"],
    ["Services", "/services"],
    ["Contact Us", "/contact"],
  ]);
});
