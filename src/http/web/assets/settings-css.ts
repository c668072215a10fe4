/** The settings pages' part of the stylesheet: forms, lists, the avatar and header crop frames. */
export const settingsCss = `
.settings-form h2{margin-top:1.8rem}
label.check input{flex-shrink:0;margin-top:.2rem}label.check .hint{display:block;margin:0}
.settings-list{list-style:none;padding:0;margin:1rem 0}
.settings-item{border:1px solid var(--line);border-radius:6px;padding:.8rem 1rem;margin:.6rem 0}
.settings-item h2{font-size:1.1rem;margin:0 0 .3rem}
.settings-item p{margin:.3rem 0}
.tag-list .settings-item{display:flex;justify-content:space-between;align-items:center;gap:1rem}
.tag-list form{margin:0}
.tag-suggestions{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.5rem}.tag-suggestions button{margin:0}
.input-row{display:flex;gap:.5rem;align-items:center}.input-row input{flex:1}.input-row button{margin:0}
.profile-images{display:grid;grid-template-columns:1fr 2fr;gap:1rem}
@media (max-width:40rem){.profile-images{grid-template-columns:1fr}}
.crop-frame{overflow:hidden;border:1px solid var(--line);border-radius:6px;background:var(--bg);margin-bottom:.5rem}
.crop-frame img{display:block;width:100%;height:100%;object-fit:cover;object-position:center}
.crop-avatar{aspect-ratio:1/1;max-width:10rem}
.crop-header{aspect-ratio:3/1}
.profile-fields{display:grid;gap:.2rem 1rem}
.profile-field{display:grid;grid-template-columns:1fr 1fr;gap:0 1rem}
@media (max-width:40rem){.profile-field{grid-template-columns:1fr}}
.profile-field label{margin-top:.6rem}
.checkbox-columns{display:grid;grid-template-columns:repeat(auto-fill,minmax(11rem,1fr));gap:0 1rem}
.scopes-list{grid-template-columns:repeat(auto-fill,minmax(16rem,1fr))}.scopes-list code{overflow-wrap:anywhere}
table.keywords input[type=text]{min-width:10rem}
table.app-secrets th{width:10rem}table.app-secrets code.code{font-size:.95rem}
@media (max-width:48rem){.settings nav ul{display:flex;flex-wrap:wrap;gap:.2rem .3rem;border-bottom:1px solid var(--line);padding-bottom:.6rem}.settings nav li a{padding:.15rem .45rem;border:1px solid var(--line)}}
dl.app-details dt{font-weight:600;margin-top:.6rem}dl.app-details dd{margin:0}
`;
