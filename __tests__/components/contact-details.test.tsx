import { render, within } from "@testing-library/react";
import { ContactList, PostalAddress } from "../../src/components/content/contact-details";
import { Footer } from "../../src/components/shell/footer";
import { loadShellData } from "../support/content";

const { site } = loadShellData();

/** Each term of a description list with its link: what a visitor reads and where it leads. */
const entries = (list: HTMLElement) =>
  [...list.querySelectorAll("dt")].map((dt) => {
    const link = within(dt.nextElementSibling as HTMLElement).getByRole("link");
    return [dt.textContent, link.textContent, link.getAttribute("href")];
  });

test("the contact page's list is the footer's, plus the website, linked the same way", () => {
  const footer = render(<Footer site={site} />).container.querySelector("dl")!;
  const contact = render(
    <ContactList
      labels={site.labels}
      mobile={site.mobile}
      telephone={site.telephone}
      email={site.email}
      website={site.website}
    />,
  ).container.querySelector("dl")!;
  const website = [site.labels.website, site.website.replace(/^https?:\/\//, ""), site.website];
  expect(entries(contact)).toEqual([...entries(footer), website]);
  expect(entries(footer)).toEqual([
    [site.labels.mobile, site.mobile, `tel:${site.mobile.replace(/[^\d+]/g, "")}`],
    [site.labels.telephone, site.telephone, `tel:${site.telephone.replace(/[^\d+]/g, "")}`],
    [site.labels.email, site.email, `mailto:${site.email}`],
  ]);
});

test("the address: one line each, the company's name first only where it is given", () => {
  const { container, rerender } = render(<PostalAddress address={site.address} />);
  const lines = () => [...container.querySelectorAll("address > *")].map((line) => line.textContent);
  const withoutName = lines();
  expect(withoutName.join(" ")).toMatch(/Chennai 600032/);
  rerender(<PostalAddress address={site.address} name={site.legalName} />);
  expect(lines()).toEqual([site.legalName, ...withoutName]);
  expect(container.querySelector("address > strong")).toHaveTextContent(site.legalName);
});
