const fs = require("fs");
const _ = require("lodash");
const { JSDOM } = require("jsdom");
const dom = new JSDOM("<ul><li>a</li><li>b</li></ul>");
const items = [...dom.window.document.querySelectorAll("li")].map((li) => li.textContent);
let ro;
try {
    fs.writeFileSync(require.resolve("lodash"), "");
    ro = "writable";
} catch (e) {
    ro = e.code;
}
console.log(_.chunk([1, 2, 3, 4, 5], 2).length, _.camelCase("foo bar"), items.join(","), ro);
