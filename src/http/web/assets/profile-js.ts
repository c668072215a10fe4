/**
 * The profile page's crop preview: once a file is chosen for the avatar or the header, it is
 * shown in that image's frame (square, or 3:1) cropped as the server will crop it (centred,
 * covering the frame). Without the script the form works the same, without the preview.
 */
export const profileJs = `"use strict";
(function () {
  var inputs = document.querySelectorAll("input[type=file][data-preview]");
  Array.prototype.forEach.call(inputs, function (input) {
    var img = document.getElementById(input.getAttribute("data-preview"));
    if (!img) return;
    var original = img.getAttribute("src");
    var url = null;
    input.addEventListener("change", function () {
      if (url) URL.revokeObjectURL(url);
      url = null;
      var file = input.files && input.files[0];
      if (file && /^image\\//.test(file.type)) {
        url = URL.createObjectURL(file);
        img.src = url;
        img.setAttribute("data-previewing", "true");
      } else {
        img.src = original;
        img.removeAttribute("data-previewing");
      }
    });
  });
})();
`;
