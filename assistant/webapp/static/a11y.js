/* Accessibility mends for gradio's own widgets, and in-page section links.
 *
 * Loaded in the page head. A MutationObserver re-applies the mends whenever gradio
 * re-renders, so they hold for every message and tab:
 *  - a collapsible box's title (role=button) holds an unnamed arrow <button>: nested
 *    controls, the inner one nameless (axe: nested-interactive, button-name). The arrow is
 *    decoration: made inert, and the title says whether it is expanded;
 *  - a radio group's fieldset has no <legend>: named by its visible label;
 *  - the upload area's aria-label differs from its visible words (label-in-name): removed,
 *    so its name is the words it shows;
 *  - our live regions (class oa-live, #oa-announce, the staff messages) get role=status /
 *    aria-live on their persistent wrapper, so a screen reader announces each new answer,
 *    result or message once;
 *  - the staff sign-in fields get autocomplete tokens (WCAG 1.3.5).
 * A click on a section link (?section=404-7H&m=brandon) inside the page opens the section
 * in the Look up tab instead of reloading (ctrl/shift/middle click still opens a new tab).
 */
(function () {
  "use strict";

  function mend(root) {
    root.querySelectorAll(".thought-group .title .arrow:not([inert])").forEach(function (el) {
      el.setAttribute("inert", "");
      el.setAttribute("aria-hidden", "true");
    });
    root.querySelectorAll(".thought-group > .title[role=button]").forEach(function (el) {
      var open = !!el.parentElement.querySelector(":scope > .content");
      if (el.getAttribute("aria-expanded") !== String(open)) el.setAttribute("aria-expanded", String(open));
    });
    // a radio group's fieldset shows its label in a <span>, not a <legend>: name the group by it
    root.querySelectorAll("fieldset[id]:not([aria-labelledby])").forEach(function (el) {
      var info = el.querySelector(":scope > [data-testid=block-info]");
      if (!info || el.querySelector(":scope > legend")) return;
      info.id = info.id || el.id + "-label";
      el.setAttribute("aria-labelledby", info.id);
    });
    root.querySelectorAll(".upload-container[aria-label]").forEach(function (el) {
      el.removeAttribute("aria-label");
    });
    root.querySelectorAll("#oa-announce, .oa-live").forEach(function (el) {
      if (el.getAttribute("aria-live") !== "polite") {
        el.setAttribute("role", "status");
        el.setAttribute("aria-live", "polite");
        el.setAttribute("aria-atomic", "true");
      }
    });
    // staff messages (signed in, wrong password, re-indexed, validation report) are announced;
    // a live region announces changes only, so the tab's fixed texts stay silent
    root.querySelectorAll("#oa-staff .block:has(> [data-testid=markdown-wrapper])").forEach(function (el) {
      if (el.getAttribute("aria-live") !== "polite") {
        el.setAttribute("role", "status");
        el.setAttribute("aria-live", "polite");
      }
    });
    // the sign-in fields say what they hold (WCAG 1.3.5, and password managers)
    [["#oa-staff-user textarea, #oa-staff-user input", "username"],
     ["#oa-staff-pw input", "current-password"]].forEach(function (p) {
      var el = root.querySelector(p[0]);
      if (el && el.getAttribute("autocomplete") !== p[1]) el.setAttribute("autocomplete", p[1]);
    });
    // the conversation stays a log for reading; the concise announcement comes from #oa-announce
    root.querySelectorAll("#oa-chat [role=log][aria-live=polite]").forEach(function (el) {
      el.setAttribute("aria-live", "off");
    });
    root.querySelectorAll("#oa-section h3:not([tabindex])").forEach(function (el) {
      el.setAttribute("tabindex", "-1");
    });
  }

  var pending = false;
  function schedule() {
    if (pending) return;
    pending = true;
    requestAnimationFrame(function () { pending = false; mend(document); scheduleFit(); });
  }

  function start() {
    mend(document);
    new MutationObserver(schedule).observe(document.body, {
      childList: true, subtree: true, attributes: true, attributeFilter: ["aria-label", "aria-live", "class"],
    });
  }

  /* Put a section reference into the hidden #oa-goto box: the server opens it in Look up. */
  function openSection(query) {
    var box = document.querySelector("#oa-goto textarea, #oa-goto input");
    if (!box) return false;
    box.value = query + "#" + Date.now();  // always a new value, so the same link opens again
    box.dispatchEvent(new Event("input", { bubbles: true }));
    return true;
  }

  document.addEventListener("click", function (ev) {
    if (ev.defaultPrevented || ev.button !== 0 || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.altKey) return;
    var a = ev.target.closest && ev.target.closest("a[href]");
    if (!a) return;
    var url;
    try { url = new URL(a.getAttribute("href"), window.location.href); } catch (e) { return; }
    if (url.origin !== window.location.origin || !url.searchParams.get("section")) return;
    if (openSection(url.search)) { ev.preventDefault(); ev.stopPropagation(); }
  }, true);

  /* After an answer: scroll the conversation so the last question and the start of its
     answer are at the top of the box (not the end of the last source box). */
  window.oaShowLastAnswer = function () {
    setTimeout(function () {
      var chat = document.querySelector("#oa-chat .bubble-wrap");
      if (!chat) return;
      var rows = chat.querySelectorAll(".message-row.user-row");
      var last = rows[rows.length - 1];
      // 36 px: below the floating "Conversation" label, which would cover the question
      if (last) chat.scrollTop = Math.max(0, last.offsetTop - chat.offsetTop - 36);
    }, 60);
  };

  /* After a section opens: move focus to its heading, for keyboard and screen-reader users. */
  window.oaFocusSection = function () {
    var tries = 0;
    (function attempt() {
      var h = document.querySelector("#oa-section h3");
      if (!h) {  // the Look up tab mounts when first shown: wait for it, a little
        if (++tries < 40) setTimeout(attempt, 50);
        return;
      }
      mend(document);
      var cited = document.querySelector("#oa-section .oa-cited");
      h.focus({ preventScroll: !!cited });
      if (cited) cited.scrollIntoView({ block: "start" });
    })();
  };

  /* The conversation takes the height the viewport leaves under the header, so the
     question box (and the answer above it) is on screen without scrolling, on a phone as
     on a desktop. The CSS clamp is the fallback when this does not run. */
  function fitChat() {
    var chat = document.getElementById("oa-chat");
    var question = document.getElementById("oa-question");
    if (!chat || !question || !chat.offsetParent) return;
    var chatTop = chat.getBoundingClientRect().top + window.scrollY;
    var chatBottom = chatTop + chat.offsetHeight;
    var row = question.closest(".row") || question;
    var below = row.getBoundingClientRect().bottom + window.scrollY - chatBottom;
    var h = Math.round(window.innerHeight - chatTop - below - 12);
    h = Math.max(200, Math.min(640, h));
    if (chat.style.getPropertyValue("--oa-chat-height") !== h + "px") {
      chat.style.setProperty("--oa-chat-height", h + "px");
      chat.classList.add("oa-fitted");
    }
  }
  var fitting = false;
  function scheduleFit() {
    if (fitting) return;
    fitting = true;
    requestAnimationFrame(function () { fitting = false; fitChat(); });
  }
  window.addEventListener("resize", scheduleFit);
  window.oaFitChat = fitChat;

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
