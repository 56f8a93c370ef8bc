;;; carrel-stock-tests.el --- ERT tests of stock eglot and lsp-mode in a library without version control  -*- lexical-binding: t; -*-

;;; Commentary:

;; Loaded by tests/run.sh after carrel-tests.el, whose helpers these use.
;; With no version control around the library, stock eglot and lsp-mode
;; send the opened file's folder, My Poems/Draft, as the workspace: the
;; server opens the library holding that project, so a delete goes to
;; the project's Trash.  Neither client declares Carrel's extensions, so
;; the server sends them no carrel/didChange (lsp-mode warns of every
;; notification it does not know) and no folder in workspace/symbol
;; (eglot 1.9 reads every result as a file, and a folder stops it).

;;; Code:

(require 'carrel-tests)

(defvar lsp-session-file)
(declare-function lsp "lsp-mode" (&optional arg))
(declare-function lsp-request "lsp-mode" (method params &rest args))
(declare-function lsp-get "lsp-protocol" (from key))
(declare-function lsp-register-client "lsp-mode" (client))
(declare-function lsp-stdio-connection "lsp-mode" (command &optional test-command))
(declare-function lsp-workspace-folders-add "lsp-mode" (project-root))
(declare-function lsp-workspaces "lsp-mode" ())
(declare-function lsp-workspace-shutdown "lsp-mode" (workspace))
(declare-function lsp--workspace-status "lsp-mode" (workspace))
(declare-function lsp--workspace-proc "lsp-mode" (workspace))
(declare-function make-lsp-client "lsp-mode" (&rest args))

(defun carrel-test--stock-library ()
  "Fill the library: My Poems with Draft/Spring.md and Draft/Sea Cycle/Waves.md.
Ready/Summer.md too, outside the folder the stock client is opened in."
  (carrel-test--project "My Poems" "poetry")
  (carrel-test--file "My Poems" "Draft" "Spring")
  (carrel-test--file "My Poems" "Ready" "Summer")
  (carrel-test--run "carrel.newFolder"
                    :parentUri (carrel--path-to-uri (carrel-test--path "My Poems" "Draft"))
                    :name "Sea Cycle")
  (carrel-test--file "My Poems" "Draft" "Sea Cycle" "Waves"))

(defun carrel-test--stock-files ()
  "The files of `carrel-test--stock-library' that the query \"s\" finds."
  (sort (list (carrel-test--path "My Poems" "Draft" "Spring.md")
              (carrel-test--path "My Poems" "Draft" "Sea Cycle" "Waves.md")
              (carrel-test--path "My Poems" "Ready" "Summer.md"))
        #'string<))

(defun carrel-test--xref-groups (xrefs)
  "Return the sorted location groups (file names) of XREFS."
  (sort (mapcar (lambda (x) (xref-location-group (xref-item-location x))) xrefs)
        #'string<))

(defmacro carrel-test--with-stock-eglot (&rest body)
  "Run BODY in Draft/Spring.md under stock eglot, with no version control.
Eglot is registered without carrel.el's help and finds no project,
so it sends the file's folder.  Skip without Debian's elpa-eglot."
  (declare (indent 0) (debug t))
  `(progn
     (add-to-list 'load-path (carrel-test--eglot-dir))
     (require 'eglot)
     (carrel-test--with-library
       (carrel-test--stock-library)
       (let ((eglot-server-programs (list '((text-mode) "carrel" "lsp")))
             (project-find-functions (list #'project-try-vc)))
         (with-current-buffer (find-file-noselect (carrel-test--path "My Poems" "Draft" "Spring.md"))
           (text-mode)
           (unwind-protect
               (progn
                 (should-not (project-current))
                 (eglot-ensure)
                 ;; eglot-ensure connects after the command that called it.
                 (run-hooks 'post-command-hook)
                 (carrel-test--wait #'eglot-current-server "eglot to connect")
                 ,@body)
             (when (eglot-current-server)
               (eglot-shutdown (eglot-current-server)))))))))

(ert-deftest carrel-test-stock-eglot-deletes-into-the-projects-trash ()
  "Stock eglot in Draft, with no version control, deletes into the project's Trash.
The server's question is answered as eglot asks it, with `completing-read'."
  (carrel-test--with-stock-eglot
    (let ((asked nil))
      (cl-letf (((symbol-function 'completing-read)
                 (lambda (prompt choices &rest _)
                   (push prompt asked)
                   (car (member "Delete" choices)))))
        (eglot-execute-command (eglot-current-server) "carrel.delete"
                               (vector (list :uri (carrel--path-to-uri buffer-file-name)))))
      (should (= (length asked) 1))
      (should (file-exists-p (carrel-test--path "My Poems" "Trash" "Spring.md")))
      (should-not (file-exists-p (carrel-test--path "My Poems" "Draft" "Spring.md"))))))

(ert-deftest carrel-test-stock-eglot-finds-files-of-the-whole-library ()
  "Stock eglot's `xref-find-apropos' finds every file, and never a folder.
A folder would stop eglot 1.9 with \"Read error: Is a directory\"."
  (carrel-test--with-stock-eglot
    (should (equal (carrel-test--xref-groups (xref-backend-apropos 'eglot "s"))
                   (carrel-test--stock-files)))))

(defun carrel-test--lsp-mode-dir ()
  "Return the folder of Debian's elpa-lsp-mode; skip the test without it."
  (let ((dir (getenv "CARREL_LSP_MODE_DIR")))
    (unless (and dir (not (string-empty-p dir)) (file-directory-p (car (split-string dir ":"))))
      (ert-skip "Debian's elpa-lsp-mode is not installed"))
    dir))

(defmacro carrel-test--with-lsp-mode (&rest body)
  "Run BODY in Draft/Spring.md under stock lsp-mode, with no version control.
The writer imported Draft as the project root, the folder lsp-mode
suggests when nothing marks a project.  Every warning shown meanwhile
is collected in `warnings'.  Skip without Debian's elpa-lsp-mode."
  (declare (indent 0) (debug t))
  `(progn
     (dolist (dir (split-string (carrel-test--lsp-mode-dir) ":"))
       (add-to-list 'load-path dir))
     ;; As package.el would: the modeline and headerline parts are autoloaded.
     (load "lsp-mode-autoloads" nil t)
     (require 'lsp-mode)
     (carrel-test--with-library
       (carrel-test--stock-library)
       (let* ((warnings nil)
              (collect (lambda (_type message &rest _) (push message warnings)))
              (lsp-session-file (expand-file-name "session" (make-temp-file "carrel-lsp" t)))
              (draft (carrel-test--path "My Poems" "Draft")))
         (lsp-register-client
          (make-lsp-client :new-connection (lsp-stdio-connection '("carrel" "lsp"))
                           :major-modes '(text-mode) :server-id 'carrel-stock-test))
         (advice-add 'display-warning :before collect)
         (with-current-buffer (find-file-noselect (carrel-test--path "My Poems" "Draft" "Spring.md"))
           (text-mode)
           (unwind-protect
               (progn
                 ;; What "Import project root" does with the folder suggested.
                 (lsp-workspace-folders-add draft)
                 (lsp)
                 (carrel-test--wait (lambda ()
                                      (and (lsp-workspaces)
                                           (eq (lsp--workspace-status (car (lsp-workspaces)))
                                               'initialized)))
                                    "lsp-mode to connect")
                 ,@body)
             (advice-remove 'display-warning collect)
             (let ((servers (mapcar #'lsp--workspace-proc (lsp-workspaces))))
               (mapc #'lsp-workspace-shutdown (lsp-workspaces))
               ;; Gone before the library is removed.
               (carrel-test--wait (lambda () (not (seq-some #'process-live-p servers)))
                                  "lsp-mode's server to exit"))))))))

(ert-deftest carrel-test-stock-lsp-mode-deletes-and-is-sent-no-carrel-notification ()
  "Stock lsp-mode deletes into the project's Trash and warns of nothing.
lsp-mode warns \"Unknown notification\" of every method it lacks a
handler for; the server sends it none of its own after a change."
  (carrel-test--with-lsp-mode
    (should (equal (sort (mapcar (lambda (s) (carrel--uri-to-path (lsp-get (lsp-get s :location) :uri)))
                                 (append (lsp-request "workspace/symbol" (list :query "s")) nil))
                         #'string<)
                   (carrel-test--stock-files)))
    (lsp-request "workspace/executeCommand"
                 (list :command "carrel.delete"
                       :arguments (vector (list :uri (carrel--path-to-uri buffer-file-name)
                                                :confirmed t))))
    ;; An outside change too, which the server's watcher sees.
    (with-temp-file (carrel-test--path "My Poems" "Draft" "Later.md") (insert "later"))
    (let ((deadline (+ (float-time) 1)))
      (while (< (float-time) deadline) (accept-process-output nil 0.05)))
    (should-not (seq-find (lambda (m) (string-match-p "Unknown notification" m)) warnings))
    (should (file-exists-p (carrel-test--path "My Poems" "Trash" "Spring.md")))))

(provide 'carrel-stock-tests)
;;; carrel-stock-tests.el ends here
