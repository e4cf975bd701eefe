import { render, screen, within } from "@testing-library/react";
import { ContactStripSection } from "../../../src/components/sections/contact-strip-section";
import { telHref } from "../../../src/utils/text";
import { siteContact } from "../../support/sections";

test("the company's name, address, numbers, e-mail and website from data/site, under 'Contact us'", () => {
  render(<ContactStripSection contact={siteContact} />);
  const region = screen.getByRole("region", { name: "Contact us" });
  expect(within(region).getByRole("heading", { level: 2 })).toHaveTextContent("Contact us");
  const address = region.querySelector("address");
  expect(address).toHaveTextContent(siteContact.companyName);
  expect(address).toHaveTextContent(siteContact.address.city);
  const links = within(region)
    .getAllByRole("link")
    .map((a) => a.getAttribute("href"));
  expect(links).toEqual([
    telHref(siteContact.mobile),
    telHref(siteContact.telephone),
    `mailto:${siteContact.email}`,
    siteContact.website,
  ]);
  expect(within(region).getByText(siteContact.labels.email)).toBeInTheDocument();
});

test("the editor's heading replaces the default", () => {
  render(<ContactStripSection heading="Reach our Chennai office" contact={siteContact} />);
  expect(screen.getByRole("region", { name: "Reach our Chennai office" })).toBeInTheDocument();
});
