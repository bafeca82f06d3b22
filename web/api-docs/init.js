// Shows the server's own OpenAPI document; nothing is loaded from elsewhere.
window.addEventListener('load', () => {
  window.SwaggerUIBundle({
    url: '/api/openapi.json',
    dom_id: '#api-docs',
    deepLinking: true,
    validatorUrl: null,
  });
});
