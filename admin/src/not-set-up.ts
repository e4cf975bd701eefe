/**
 * The studio of a build made without a git host (no CMS_BACKEND): a page that says so in plain words,
 * instead of a sign-in that cannot work. Decap CMS is not in this bundle at all.
 */
const main = document.createElement("main");
// Styled in place: the studio's stylesheet is the site's, for previews only.
main.style.cssText =
  "max-width:40rem;margin:4rem auto;padding:0 1.5rem;font:1.0625rem/1.6 system-ui,sans-serif;color:#14202e";
const paragraphs = [
  "This is where the website's editors change its text and pictures, but it has not been connected to the place where the website's files are kept (its git host), so nobody can sign in yet.",
  "Whoever looks after the website can set it up: the steps are in docs/editing-studio.md, under \u201cEditing on the published site\u201d.",
  "To edit the content on your own computer instead, run npm run cms in the website's folder and open the address it prints.",
];
const heading = document.createElement("h1");
heading.textContent = "The editing studio is not set up yet";
main.append(
  heading,
  ...paragraphs.map((text) => {
    const p = document.createElement("p");
    p.textContent = text;
    return p;
  }),
);
document.body.append(main);
